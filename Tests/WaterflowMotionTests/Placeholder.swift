// Placeholder until the suite lands.
