// local stub (not committed)
