// libdeflate and the PNG codec's vector row kernels. Only the `PNGKernels` module imports this.
//
// Apart from the drawing libraries (module CCairo), so that what only decodes, compares and
// encodes PNG files (`waterflow diff`) loads libdeflate alone, not the forty libraries that
// cairo and pango bring.
#ifndef WATERFLOW_PNG_KERNELS_H
#define WATERFLOW_PNG_KERNELS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* The Up filter of a row of opaque premultiplied ARGB pixels, packed as PNG's RGB bytes: byte by
   byte, row minus the row above, in R, G, B order. PNGCodec's frame encoder spends a tenth of a
   scroll frame here in portable Swift, which compares eight pixels at a time but packs pixel by
   pixel; with AVX2 one subtraction and one byte shuffle pack eight pixels. No library has this
   step (libpng and libdeflate take rows already packed). Same bytes as the Swift code, which
   CPUs without AVX2 (and other architectures) keep using.

   Returns 0 when some pixel is not opaque, and -1 without AVX2. Returns 1 when the row equals the
   row above, and then writes nothing: the frame's run encoder never reads such a row unless it
   writes its zeros itself (RunDeflater.addRow), and in a frame most rows are such, whose stores
   were a third of the memory traffic of encoding one. Otherwise returns 2, writes 3 × width bytes
   at `out` (and may write up to 4 bytes past them: the next row's filter byte and first bytes,
   written after this row, or the buffer's slack), and sets *nonzero to how many are not zero. */
#if defined(__x86_64__)
__attribute__((target("avx2,popcnt")))
static inline int waterflow_up_filter_opaque_row_avx2(
    const uint32_t *row, const uint32_t *above, long width, uint8_t *out, long *nonzero) {
  const __m256i pack = _mm256_setr_epi8(
      2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
      2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  /* The row two below, fetched into L2 while this one is compared: the loads of a frame's rows
     were most of the filter's time, and the hardware's own prefetching stops at each row's end,
     where the encoder goes on to code it. On the 1500×2668 bench frame (12 alternating runs
     each), against two rows below into L2: into L3 took 1.03× as long, into L1 1.20×; three rows
     below 1.03×, one row 1.13×; no prefetch 1.2–1.3×. Computed through integers, as `above` need
     not be in the same buffer; a prefetch never faults.
     A changed row also fetches, for writing, where the row two below is filtered to (the encoder's
     rows follow one another, 3 × width + 1 bytes apart): changed rows come in runs (text, card
     edges), and the stores had waited for their lines. 0.92× the time (16 alternating runs);
     fetching there for every row, equal ones included, 1.04×; one row below, 1.02×. */
  const char *ahead = (const char *)((uintptr_t)row + 2 * ((uintptr_t)row - (uintptr_t)above));
  const char *outAhead = (const char *)((uintptr_t)out + 2 * (3 * (uintptr_t)width + 1));
  /* First only compare: a pixel equal to the one above is as opaque as it. */
  long x = 0;
  for (; x + 8 <= width; x += 8) {
    __builtin_prefetch(ahead + 4 * x, 0, 2);
    __m256i a = _mm256_loadu_si256((const __m256i *)(row + x));
    __m256i b = _mm256_loadu_si256((const __m256i *)(above + x));
    if ((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) != 0xffffffffu) break;
  }
  if (x + 8 > width) {
    long t = x;
    while (t < width && row[t] == above[t]) t++;
    if (t == width) return 1;
  }
  memset(out, 0, 3 * x);
  __m256i alpha = _mm256_set1_epi32(-1);
  const __m256i zero = _mm256_setzero_si256();
  long count = 0;
  for (; x + 8 <= width; x += 8) {
    __builtin_prefetch(ahead + 4 * x, 0, 2);
    __builtin_prefetch(outAhead + 3 * x, 1, 2);
    __m256i a = _mm256_loadu_si256((const __m256i *)(row + x));
    __m256i d = _mm256_sub_epi8(a, _mm256_loadu_si256((const __m256i *)(above + x)));
    alpha = _mm256_and_si256(alpha, a);
    /* Alpha bytes subtract to zero here (both opaque, else the row is refused below). */
    count += 32 - __builtin_popcount((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(d, zero)));
    __m256i packed = _mm256_shuffle_epi8(d, pack);
    _mm_storeu_si128((__m128i *)(out + 3 * x), _mm256_castsi256_si128(packed));
    _mm_storeu_si128((__m128i *)(out + 3 * x + 12), _mm256_extracti128_si256(packed, 1));
  }
  uint32_t alphaWord = 0xffffffffu;
  for (; x < width; x++) {
    uint32_t a = row[x], b = above[x];
    /* Byte-wise subtraction without borrows between bytes (Hacker's Delight 2-18). */
    uint32_t d = ((a | 0x80808080u) - (b & ~0x80808080u)) ^ ((a ^ ~b) & 0x80808080u);
    alphaWord &= a;
    out[3 * x] = (uint8_t)(d >> 16);
    out[3 * x + 1] = (uint8_t)(d >> 8);
    out[3 * x + 2] = (uint8_t)d;
    count += ((d >> 16) & 0xff) != 0;
    count += ((d >> 8) & 0xff) != 0;
    count += (d & 0xff) != 0;
  }
  __m128i alpha4 = _mm_and_si128(_mm256_castsi256_si128(alpha), _mm256_extracti128_si256(alpha, 1));
  uint32_t lanes[4];
  _mm_storeu_si128((__m128i *)lanes, alpha4);
  alphaWord &= lanes[0] & lanes[1] & lanes[2] & lanes[3];
  if ((alphaWord & 0xff000000u) != 0xff000000u) return 0;
  *nonzero = count;
  return 2;
}
#endif

static inline int waterflow_up_filter_opaque_row(
    const uint32_t *row, const uint32_t *above, long width, uint8_t *out, long *nonzero) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2"))
    return waterflow_up_filter_opaque_row_avx2(row, above, width, out, nonzero);
#endif
  (void)row; (void)above; (void)width; (void)out; (void)nonzero;
  return -1;
}

/* The index of the first byte of s[from..<to] that is not zero, or `to`: how far a stretch of
   zeros in a filtered row reaches. `vector` 0 keeps to the portable code. */
#if defined(__x86_64__)
__attribute__((target("avx2,bmi")))
static inline long waterflow_first_nonzero_avx2(const uint8_t *s, long i, long to, int *found) {
  const __m256i zero = _mm256_setzero_si256();
  for (; i + 32 <= to; i += 32) {
    uint32_t nonzero = ~(uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(s + i)), zero));
    if (nonzero) {
      *found = 1;
      return i + __builtin_ctz(nonzero);
    }
  }
  return i;
}
#endif

static inline long waterflow_first_nonzero(const uint8_t *s, long from, long to, int vector) {
  long i = from;
#if defined(__x86_64__)
  if (vector && __builtin_cpu_supports("avx2")) {
    int found = 0;
    i = waterflow_first_nonzero_avx2(s, from, to, &found);
    if (found) return i;
  }
#endif
  (void)vector;
  while (i < to && s[i] == 0) i++;
  return i;
}

/* Whether waterflow_up_filter_opaque_row filters here (rather than returning -1). */
static inline int waterflow_has_vector_row_filter(void) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
  return 0;
#endif
}

/* Photo rows for PNGCodec's frame encoder.

   After the Up filter, a row of a photo is mostly small nonzero residuals between short zero
   runs: the run encoder's search (built for flat UI, where rows repeat the row above) finds little
   there and pays for every byte it tries. For such rows the encoder instead filters with Paeth,
   keeps 32-byte chunks that are all zero as runs, and codes the rest as literals, as fpnge
   (github.com/veluca93/fpnge) codes every row. The kernels below are those steps, with AVX2 where the CPU has it and a portable path
   that gives the same bytes and the same choice everywhere. */

/* The number of nonzero bytes among `count`. */
static inline long waterflow_count_nonzero_portable(const uint8_t *s, long from, long count) {
  long n = 0;
  for (long i = from; i < count; i++) n += s[i] != 0;
  return n;
}

#if defined(__x86_64__)
__attribute__((target("avx2,popcnt")))
static inline long waterflow_count_nonzero_avx2(const uint8_t *s, long count, long *done) {
  long n = 0, i = 0;
  const __m256i zero = _mm256_setzero_si256();
  for (; i + 32 <= count; i += 32) {
    uint32_t z = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(s + i)), zero));
    n += 32 - __builtin_popcount(z);
  }
  *done = i;
  return n;
}
#endif

/* `vector` 0 keeps to the portable code, for tests that compare the two. */
static inline long waterflow_count_nonzero(const uint8_t *s, long count, int vector) {
  long done = 0, n = 0;
#if defined(__x86_64__)
  if (vector && __builtin_cpu_supports("avx2"))
    n = waterflow_count_nonzero_avx2(s, count, &done);
#endif
  (void)vector;
  return n + waterflow_count_nonzero_portable(s, done, count);
}

#if defined(__x86_64__)
/* Three of every four bytes of a row of 4-byte pixels, picked by `pack` (a shuffle within each
   16 bytes), written as 3-byte pixels. Each step stores 16 bytes for 12: the next step's bytes
   overwrite the extra 4, and the last step stops 8 pixels early so that nothing past the row is
   written. Returns the pixels done. */
__attribute__((target("avx2")))
static inline long waterflow_pack_three_of_four_avx2(
    const uint8_t *row, long width, uint8_t *out, __m256i pack) {
  long x = 0;
  for (; x + 16 <= width; x += 8) {
    __m256i packed = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(row + 4 * x)), pack);
    _mm_storeu_si128((__m128i *)(out + 3 * x), _mm256_castsi256_si128(packed));
    _mm_storeu_si128((__m128i *)(out + 3 * x + 12), _mm256_extracti128_si256(packed, 1));
  }
  return x;
}

/* ARGB words (B, G, R, A bytes in memory) as R, G, B. */
__attribute__((target("avx2")))
static inline long waterflow_pack_rgb_row_avx2(const uint32_t *row, long width, uint8_t *out) {
  return waterflow_pack_three_of_four_avx2(
      (const uint8_t *)row, width, out,
      _mm256_setr_epi8(
          2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
          2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1));
}

/* Straight R, G, B, A bytes as R, G, B. */
__attribute__((target("avx2")))
static inline long waterflow_pack_rgb_from_rgba_row_avx2(
    const uint8_t *row, long width, uint8_t *out) {
  return waterflow_pack_three_of_four_avx2(
      row, width, out,
      _mm256_setr_epi8(
          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1));
}
#endif

/* How many of an Up-filtered row's `count` bytes differ from the byte a pixel (`bpp` bytes)
   before them, from the second pixel on: the residual of the row against the plane through its
   left, upper and upper-left neighbours, nearly what Paeth leaves. The frame encoder tries Paeth
   only on rows where this is large: the top edge of a card changes every byte from the row above,
   by the same amount across the card. */
#if defined(__x86_64__)
__attribute__((target("avx2,popcnt")))
static inline long waterflow_count_gradient_changes_avx2(
    const uint8_t *d, long count, long bpp, long *i) {
  long n = 0;
  for (; *i + 32 <= count; *i += 32) {
    uint32_t same = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_loadu_si256((const __m256i *)(d + *i)),
        _mm256_loadu_si256((const __m256i *)(d + *i - bpp))));
    n += 32 - __builtin_popcount(same);
  }
  return n;
}
#endif

static inline long waterflow_count_gradient_changes(
    const uint8_t *d, long count, long bpp, int vector) {
  long n = 0, i = bpp;
#if defined(__x86_64__)
  if (vector && __builtin_cpu_supports("avx2"))
    n = waterflow_count_gradient_changes_avx2(d, count, bpp, &i);
#endif
  (void)vector;
  for (; i < count; i++) n += d[i] != d[i - bpp];
  return n;
}

/* R, G, B bytes as opaque R, G, B, 255, sixteen pixels a step: the PNG decoder's RGB rows, which
   it widens in place towards the front of its buffer. Returns how many pixels it widened (a
   multiple of 16; 0 without SSSE3); the caller widens the rest. `out` may overlap `row` from
   below when it starts at least `width` bytes before it: each step reads its 48 bytes before it
   writes its 64, and then ends no later than where the next step reads. */
#if defined(__x86_64__)
__attribute__((target("ssse3")))
static inline long waterflow_widen_rgb_row_ssse3(const uint8_t *row, long width, uint8_t *out) {
  const __m128i order = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
  long x = 0;
  for (; x + 16 <= width; x += 16) {
    const uint8_t *s = row + 3 * x;
    __m128i a = _mm_loadu_si128((const __m128i *)s);
    __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
    __m128i p1 = _mm_alignr_epi8(b, a, 12);
    __m128i p2 = _mm_alignr_epi8(c, b, 8);
    __m128i p3 = _mm_srli_si128(c, 4);
    uint8_t *d = out + 4 * x;
    _mm_storeu_si128((__m128i *)d, _mm_or_si128(_mm_shuffle_epi8(a, order), alpha));
    _mm_storeu_si128((__m128i *)(d + 16), _mm_or_si128(_mm_shuffle_epi8(p1, order), alpha));
    _mm_storeu_si128((__m128i *)(d + 32), _mm_or_si128(_mm_shuffle_epi8(p2, order), alpha));
    _mm_storeu_si128((__m128i *)(d + 48), _mm_or_si128(_mm_shuffle_epi8(p3, order), alpha));
  }
  return x;
}
#endif

static inline long waterflow_widen_rgb_row(const uint8_t *row, long width, uint8_t *out) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("ssse3")) return waterflow_widen_rgb_row_ssse3(row, width, out);
#endif
  (void)row; (void)width; (void)out;
  return 0;
}

/* Each pixel's colour bytes as R, G, B (`3 × width` at `out`): of opaque premultiplied ARGB
   words, or, when `straight`, of straight R, G, B, A bytes (an opaque image's alpha dropped). */
static inline void waterflow_pack_rgb_row(
    const void *row, long width, uint8_t *out, int straight, int vector) {
  long x = 0;
#if defined(__x86_64__)
  if (vector && __builtin_cpu_supports("avx2"))
    x = straight ? waterflow_pack_rgb_from_rgba_row_avx2((const uint8_t *)row, width, out)
                 : waterflow_pack_rgb_row_avx2((const uint32_t *)row, width, out);
#endif
  (void)vector;
  const uint8_t *bytes = (const uint8_t *)row;
  const uint32_t *words = (const uint32_t *)row;
  for (; x < width; x++) {
    /* Words by shifts, so that the channels do not depend on the byte order. */
    uint32_t p = straight ? 0 : words[x];
    out[3 * x] = straight ? bytes[4 * x] : (uint8_t)(p >> 16);
    out[3 * x + 1] = straight ? bytes[4 * x + 1] : (uint8_t)(p >> 8);
    out[3 * x + 2] = straight ? bytes[4 * x + 2] : (uint8_t)p;
  }
}

static inline uint8_t waterflow_paeth(uint8_t a, uint8_t b, uint8_t c) {
  int p = (int)a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/* The PNG decoder's Paeth for four consecutive RGB rows at once, each `3 × pixels` bytes, `r0`
   below `above` (already reconstructed) and each row below the one before, one filter byte apart
   in one buffer (a load reads one byte past a row's last pixel); 0 without AVX2 or below 8
   pixels, else 1 once all four are reconstructed.

   Paeth is a chain through every pixel of a row, and one row keeps the vector unit waiting on
   it; a pixel needs only the row above finished one pixel further on. So step s reconstructs
   pixel s − k of row k, four chains side by side in one vector of sixteen 16-bit lanes (a pixel's
   three bytes and one spare): its `b` is the row above's result of the step before, its `c` the
   `b` of the step before. The first and last pixels of the staggered rows are done one by one.
   Each 4-byte store also writes the first byte of the row's next pixel, which was loaded before
   it and is stored whole by the next step; no store passes a row's last pixel. Needs 8 pixels. */
#if defined(__x86_64__)
static inline void waterflow_paeth_rgb_pixel(
    uint8_t *row, const uint8_t *up, long x, const uint8_t raw[3]) {
  for (int i = 0; i < 3; i++) {
    uint8_t a = x > 0 ? row[3 * x - 3 + i] : 0, c = x > 0 ? up[3 * x - 3 + i] : 0;
    row[3 * x + i] = (uint8_t)(raw[i] + waterflow_paeth(a, up[3 * x + i], c));
  }
}

__attribute__((target("avx2")))
static inline int waterflow_paeth_rgb_quad_avx2(
    uint8_t *r0, uint8_t *r1, uint8_t *r2, uint8_t *r3, const uint8_t *above, long pixels) {
  /* The staggered start: pixels 0–2 of row 0, 0–1 of row 1, 0 of row 2. */
  waterflow_paeth_rgb_pixel(r0, above, 0, r0);
  waterflow_paeth_rgb_pixel(r0, above, 1, r0 + 3);
  waterflow_paeth_rgb_pixel(r1, r0, 0, r1);
  waterflow_paeth_rgb_pixel(r0, above, 2, r0 + 6);
  waterflow_paeth_rgb_pixel(r1, r0, 1, r1 + 3);
  waterflow_paeth_rgb_pixel(r2, r1, 0, r2);
  #define WF_PIXEL(p) ((uint32_t)(p)[0] | (uint32_t)(p)[1] << 8 | (uint32_t)(p)[2] << 16)
  #define WF_LOAD4(p) ({ uint32_t w_; memcpy(&w_, (p), 4); w_; })
  __m256i a = _mm256_cvtepu8_epi16(_mm_setr_epi32(
      (int)WF_PIXEL(r0 + 6), (int)WF_PIXEL(r1 + 3), (int)WF_PIXEL(r2), 0));
  __m256i c = _mm256_cvtepu8_epi16(_mm_setr_epi32(
      (int)WF_PIXEL(above + 6), (int)WF_PIXEL(r0 + 3), (int)WF_PIXEL(r1), 0));
  __m128i next = _mm_setr_epi32(
      (int)WF_LOAD4(r0 + 9), (int)WF_LOAD4(r1 + 6), (int)WF_LOAD4(r2 + 3), (int)WF_LOAD4(r3));
  const __m256i low = _mm256_set1_epi16(0xFF);
  long s = 3;
  for (; s <= pixels - 2; s++) {
    __m256i above4 = _mm256_cvtepu8_epi16(_mm_cvtsi32_si128((int)WF_LOAD4(above + 3 * s)));
    __m256i b = _mm256_blend_epi32(_mm256_permute4x64_epi64(a, 0x90), above4, 0x03);
    __m256i x = _mm256_cvtepu8_epi16(next);
    /* Loaded before the stores below overwrite their first bytes. */
    next = _mm_setr_epi32(
        (int)WF_LOAD4(r0 + 3 * (s + 1)), (int)WF_LOAD4(r1 + 3 * s),
        (int)WF_LOAD4(r2 + 3 * (s - 1)), (int)WF_LOAD4(r3 + 3 * (s - 2)));
    __m256i pa = _mm256_abs_epi16(_mm256_sub_epi16(b, c));
    __m256i pb = _mm256_abs_epi16(_mm256_sub_epi16(a, c));
    __m256i pc = _mm256_abs_epi16(_mm256_sub_epi16(_mm256_add_epi16(a, b), _mm256_add_epi16(c, c)));
    __m256i bc = _mm256_blendv_epi8(b, c, _mm256_cmpgt_epi16(pb, pc));
    __m256i notA = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
    __m256i value = _mm256_and_si256(_mm256_add_epi16(x, _mm256_blendv_epi8(a, bc, notA)), low);
    __m256i packed = _mm256_packus_epi16(value, value);
    uint32_t w0 = (uint32_t)_mm256_extract_epi32(packed, 0), w1 = (uint32_t)_mm256_extract_epi32(packed, 1);
    uint32_t w2 = (uint32_t)_mm256_extract_epi32(packed, 4), w3 = (uint32_t)_mm256_extract_epi32(packed, 5);
    memcpy(r0 + 3 * s, &w0, 4);
    memcpy(r1 + 3 * (s - 1), &w1, 4);
    memcpy(r2 + 3 * (s - 2), &w2, 4);
    memcpy(r3 + 3 * (s - 3), &w3, 4);
    c = b;
    a = value;
  }
  /* The staggered end: the four pixels whose first bytes the last stores overwrote come from
     `next`, the rest from the rows. */
  uint32_t kept[4];
  _mm_storeu_si128((__m128i *)kept, next);
  uint8_t saved[4][3];
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < 3; i++) saved[k][i] = (uint8_t)(kept[k] >> (8 * i));
  long last = pixels - 1;
  waterflow_paeth_rgb_pixel(r0, above, last, saved[0]);
  waterflow_paeth_rgb_pixel(r1, r0, last - 1, saved[1]);
  waterflow_paeth_rgb_pixel(r1, r0, last, r1 + 3 * last);
  waterflow_paeth_rgb_pixel(r2, r1, last - 2, saved[2]);
  for (long x = last - 1; x <= last; x++) waterflow_paeth_rgb_pixel(r2, r1, x, r2 + 3 * x);
  waterflow_paeth_rgb_pixel(r3, r2, last - 3, saved[3]);
  for (long x = last - 2; x <= last; x++) waterflow_paeth_rgb_pixel(r3, r2, x, r3 + 3 * x);
  #undef WF_PIXEL
  #undef WF_LOAD4
  return 1;
}
#endif

static inline int waterflow_paeth_rgb_quad(
    uint8_t *r0, uint8_t *r1, uint8_t *r2, uint8_t *r3, const uint8_t *above, long pixels) {
#if defined(__x86_64__)
  if (pixels >= 8 && __builtin_cpu_supports("avx2"))
    return waterflow_paeth_rgb_quad_avx2(r0, r1, r2, r3, above, pixels);
#endif
  (void)r0; (void)r1; (void)r2; (void)r3; (void)above; (void)pixels;
  return 0;
}

#if defined(__x86_64__)
__attribute__((target("avx2,popcnt")))
static inline long waterflow_paeth_row_avx2(
    const uint8_t *cur, const uint8_t *up, long count, long bpp, uint8_t *out, uint64_t *zero,
    long *nonzero) {
  long i = 0, n = 0;
  for (; i + 32 <= count; i += 32) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(cur + i));
    __m256i a = _mm256_loadu_si256((const __m256i *)(cur + i - bpp));
    __m256i b = _mm256_loadu_si256((const __m256i *)(up + i));
    __m256i c = _mm256_loadu_si256((const __m256i *)(up + i - bpp));
    /* In 16-bit lanes: pa = |b − c|, pb = |a − c|, pc = |a + b − 2c|; a when pa <= pb and
       pa <= pc, else b when pb <= pc, else c. */
    __m256i predicted[2];
    for (int half = 0; half < 2; half++) {
      __m128i a8 = half ? _mm256_extracti128_si256(a, 1) : _mm256_castsi256_si128(a);
      __m128i b8 = half ? _mm256_extracti128_si256(b, 1) : _mm256_castsi256_si128(b);
      __m128i c8 = half ? _mm256_extracti128_si256(c, 1) : _mm256_castsi256_si128(c);
      __m256i a16 = _mm256_cvtepu8_epi16(a8), b16 = _mm256_cvtepu8_epi16(b8),
              c16 = _mm256_cvtepu8_epi16(c8);
      __m256i pa = _mm256_abs_epi16(_mm256_sub_epi16(b16, c16));
      __m256i pb = _mm256_abs_epi16(_mm256_sub_epi16(a16, c16));
      __m256i pc = _mm256_abs_epi16(_mm256_sub_epi16(_mm256_add_epi16(a16, b16),
                                                     _mm256_add_epi16(c16, c16)));
      __m256i notA = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
      __m256i bOrC = _mm256_blendv_epi8(b16, c16, _mm256_cmpgt_epi16(pb, pc));
      predicted[half] = _mm256_blendv_epi8(a16, bOrC, notA);
    }
    __m256i packed = _mm256_permute4x64_epi64(
        _mm256_packus_epi16(predicted[0], predicted[1]), 0xd8);
    __m256i r = _mm256_sub_epi8(x, packed);
    _mm256_storeu_si256((__m256i *)(out + i), r);
    uint32_t zeros = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, _mm256_setzero_si256()));
    n += 32 - __builtin_popcount(zeros);
    zero[i >> 11] |= (uint64_t)(zeros == 0xffffffffu) << ((i >> 5) & 63);
  }
  *nonzero = n;
  return i;
}
#endif

/* Writes a photo row's Paeth residuals at `out` (`count` bytes) and returns how many are not
   zero. `cur` and `up` are the row and the row above packed as RGB or RGBA (`bpp` 3 or 4), each
   with `bpp` readable zero bytes before index 0.

   Paeth, not a choice per row: on the notes feed the smallest sum of residuals picked it for 1,208
   of 1,247 photo rows, and the choice cost a tenth of the frame for 0.2 % of its bytes.

   The residuals are cut into 32-byte chunks, and bit k of `zero[k / 64]` is set when chunk k is
   all zero: the last, shorter chunk only when the chunk before it is zero too, so that every run
   of zero chunks is at least 32 bytes. `zero` holds (count / 32 + 64) / 64 words. */
static inline long waterflow_paeth_row(
    const uint8_t *cur, const uint8_t *up, long count, long bpp, uint8_t *out, uint64_t *zero,
    int vector) {
  long chunks = (count + 31) / 32;
  for (long k = 0; k < (chunks + 63) / 64; k++) zero[k] = 0;
  long i = 0, nonzero = 0;
#if defined(__x86_64__)
  if (vector && __builtin_cpu_supports("avx2"))
    i = waterflow_paeth_row_avx2(cur, up, count, bpp, out, zero, &nonzero);
#endif
  (void)vector;
  for (long k = i / 32; k < chunks; k++) {
    long start = 32 * k, end = start + 32 < count ? start + 32 : count;
    long chunkNonzero = 0;
    for (long j = start; j < end; j++) {
      out[j] = (uint8_t)(cur[j] - waterflow_paeth(cur[j - bpp], up[j], up[j - bpp]));
      chunkNonzero += out[j] != 0;
    }
    nonzero += chunkNonzero;
    int previousZero = k > 0 && ((zero[(k - 1) >> 6] >> ((k - 1) & 63)) & 1);
    if (chunkNonzero == 0 && (end - start == 32 || previousZero))
      zero[k >> 6] |= 1ull << (k & 63);
  }
  return nonzero;
}

/* Marks the all-zero 32-byte chunks of `count` residual bytes at `out` in `zero` as
   waterflow_paeth_row does (the last, shorter chunk only after a zero chunk), and returns how many
   bytes are not zero. */
#if defined(__x86_64__)
__attribute__((target("avx2,popcnt")))
static inline long waterflow_mark_zero_chunks_avx2(const uint8_t *out, long count, uint64_t *zero) {
  long chunks = (count + 31) / 32;
  for (long k = 0; k < (chunks + 63) / 64; k++) zero[k] = 0;
  long i = 0, n = 0;
  for (; i + 32 <= count; i += 32) {
    uint32_t zeros = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_loadu_si256((const __m256i *)(out + i)), _mm256_setzero_si256()));
    n += 32 - __builtin_popcount(zeros);
    zero[i >> 11] |= (uint64_t)(zeros == 0xffffffffu) << ((i >> 5) & 63);
  }
  if (i < count) {
    long k = i / 32, tail = 0;
    for (long j = i; j < count; j++) tail += out[j] != 0;
    n += tail;
    int previousZero = k > 0 && ((zero[(k - 1) >> 6] >> ((k - 1) & 63)) & 1);
    if (tail == 0 && previousZero) zero[k >> 6] |= 1ull << (k & 63);
  }
  return n;
}

/* A row of a photo in one pass, for the frame encoder once the row above was one: the counts its
   choice of coding reads (the bytes that changed from the row above, and those of the Up residual
   that differ from the residual a pixel before, from the second pixel on), and the row's Paeth
   residuals, packed as RGB at `out` (3 × width bytes) with its zero chunks marked in `zero` and
   their nonzero count. The separate passes (Up filter, count, pack both rows, Paeth) read and
   wrote the row five times: a fifth of a photo frame's encoding.

   Paeth in bytes, without widening: pa = |b − c| and pb = |a − c| fit, and pc = |a + b − 2c| is
   pa + pb when b − c and a − c have the same sign, else |pa − pb|. The sum saturates at 255, which
   keeps every comparison Paeth makes (pa and pb are at most 255). Returns 0 when a pixel is not
   opaque (nothing else is then valid), 1 otherwise. */
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx2,popcnt")))
static inline int waterflow_photo_row_avx512(
    const uint32_t *row, const uint32_t *above, long width, uint8_t *out, uint64_t *zero,
    long *changed, long *gradient, long *nonzero) {
  /* Output byte 3p + j is input byte 4p + 2 − j: B, G, R, A words in memory to R, G, B. */
  static const uint8_t order[64] = {
      2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 18, 17, 16, 22, 21, 20, 26, 25, 24, 30, 29, 28,
      34, 33, 32, 38, 37, 36, 42, 41, 40, 46, 45, 44, 50, 49, 48, 54, 53, 52, 58, 57, 56, 62, 61, 60,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const __m512i pack = _mm512_loadu_si512((const void *)order);
  __m512i alpha = _mm512_set1_epi32(-1);
  long up = 0, grad = 0;
  /* The row two below, into L2, as waterflow_up_filter_opaque_row_avx2 fetches it. */
  const char *ahead = (const char *)((uintptr_t)row + 2 * ((uintptr_t)row - (uintptr_t)above));
  for (long x = 0; x < width; x += 16) {
    __builtin_prefetch(ahead + 4 * x, 0, 2);
    long n = width - x < 16 ? width - x : 16;
    __mmask16 k = (__mmask16)((1u << n) - 1);
    /* The pixel left of the first is zero, as PNG's filters read it; masked loads never touch it. */
    __mmask16 left = x == 0 ? (__mmask16)(k & ~1u) : k;
    __m512i X = _mm512_maskz_loadu_epi32(k, row + x);
    __m512i B = _mm512_maskz_loadu_epi32(k, above + x);
    __m512i A = _mm512_maskz_loadu_epi32(left, row + x - 1);
    __m512i C = _mm512_maskz_loadu_epi32(left, above + x - 1);
    alpha = _mm512_mask_and_epi32(alpha, k, alpha, X);
    __m512i D = _mm512_sub_epi8(X, B);
    __m512i previous = _mm512_sub_epi8(A, C);
    up += __builtin_popcountll(_mm512_cmpneq_epi8_mask(X, B));
    __mmask64 differs = _mm512_cmpneq_epi8_mask(D, previous);
    if (x == 0) differs &= ~(__mmask64)0xf;
    grad += __builtin_popcountll(differs);
    __m512i pa = _mm512_sub_epi8(_mm512_max_epu8(B, C), _mm512_min_epu8(B, C));
    __m512i pb = _mm512_sub_epi8(_mm512_max_epu8(A, C), _mm512_min_epu8(A, C));
    __mmask64 same = _kxnor_mask64(_mm512_cmpge_epu8_mask(B, C), _mm512_cmpge_epu8_mask(A, C));
    __m512i pc = _mm512_mask_blend_epi8(
        same, _mm512_sub_epi8(_mm512_max_epu8(pa, pb), _mm512_min_epu8(pa, pb)),
        _mm512_adds_epu8(pa, pb));
    __mmask64 notA = _mm512_cmpgt_epu8_mask(pa, pb) | _mm512_cmpgt_epu8_mask(pa, pc);
    __m512i bOrC = _mm512_mask_blend_epi8(_mm512_cmpgt_epu8_mask(pb, pc), B, C);
    __m512i predicted = _mm512_mask_blend_epi8(notA, A, bOrC);
    __m512i packed = _mm512_permutexvar_epi8(pack, _mm512_sub_epi8(X, predicted));
    _mm512_mask_storeu_epi8(out + 3 * x, (__mmask64)((1ull << (3 * n)) - 1), packed);
  }
  if ((uint32_t)_mm512_reduce_and_epi32(alpha) >> 24 != 0xffu) return 0;
  *changed = up;
  *gradient = grad;
  *nonzero = waterflow_mark_zero_chunks_avx2(out, 3 * width, zero);
  return 1;
}
#endif

/* Whether waterflow_photo_row runs here: AVX-512 with BW and VBMI. */
static inline int waterflow_has_photo_row_kernel(void) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi");
#else
  return 0;
#endif
}

/* waterflow_photo_row_avx512 where the CPU has AVX-512 (BW and VBMI); -1 elsewhere, and then the
   encoder keeps its separate passes, which give the same bytes. */
static inline int waterflow_photo_row(
    const uint32_t *row, const uint32_t *above, long width, uint8_t *out, uint64_t *zero,
    long *changed, long *gradient, long *nonzero) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi"))
    return waterflow_photo_row_avx512(row, above, width, out, zero, changed, gradient, nonzero);
#endif
  (void)row; (void)above; (void)width; (void)out; (void)zero; (void)changed; (void)gradient;
  (void)nonzero;
  return -1;
}

/* Counts every byte of the chunks `zero` does not mark (see waterflow_paeth_row) in `histogram`:
   4 × 256 counts, spread so that repeated bytes do not wait on one counter. */
static inline void waterflow_count_literals(
    const uint8_t *s, long count, const uint64_t *zero, uint32_t *histogram) {
  long chunks = (count + 31) / 32;
  for (long k = 0; k < chunks; k++) {
    if ((zero[k >> 6] >> (k & 63)) & 1) continue;
    long start = 32 * k, n = count - start < 32 ? count - start : 32;
    long i = 0;
    for (; i + 4 <= n; i += 4) {
      histogram[s[start + i]]++;
      histogram[256 + s[start + i + 1]]++;
      histogram[512 + s[start + i + 2]]++;
      histogram[768 + s[start + i + 3]]++;
    }
    for (; i < n; i++) histogram[s[start + i]]++;
  }
}

/* The bit writer of the literal coder: `acc` holds `count` pending bits; a store moves out the
   whole bytes (8 bytes are written, so the output needs 8 bytes of slack), leaving fewer than 8. */
#define WATERFLOW_FLUSH(acc, count, o)                     \
  do {                                                     \
    memcpy(o, &acc, 8);                                    \
    o += count >> 3;                                       \
    acc >>= (count & 56);                                  \
    count &= 7;                                            \
  } while (0)

/* A literal code's fields as byte tables for the vector coder (768 bytes at `tables`): the 256
   code lengths, then the low and the high byte of each code. */
static inline void waterflow_literal_tables(const uint64_t *fields, uint8_t *tables) {
  for (int v = 0; v < 256; v++) {
    tables[v] = (uint8_t)(fields[v] >> 32);
    tables[256 + v] = (uint8_t)fields[v];
    tables[512 + v] = (uint8_t)(fields[v] >> 8);
  }
}

/* Codes eight literals at a time: joined before each store when they fit 56 bits together. */
static inline long waterflow_code_literals_portable(
    const uint8_t *s, long from, long n, const uint64_t *fields, uint64_t *accp, long *countp,
    uint8_t **op) {
  uint64_t acc = *accp;
  long count = *countp;
  uint8_t *o = *op;
  long i = from;
  for (; i + 8 <= n; i += 8) {
    uint64_t v = 0;
    long length = 0;
    for (int k = 0; k < 8; k++) {
      uint64_t f = fields[s[i + k]];
      v |= (f & 0xffffffffu) << length;
      length += (long)(f >> 32);
    }
    if (length <= 56) {
      acc |= v << count;
      count += length;
      WATERFLOW_FLUSH(acc, count, o);
    } else {
      for (int k = 0; k < 8; k++) {
        uint64_t f = fields[s[i + k]];
        acc |= (f & 0xffffffffu) << count;
        count += (long)(f >> 32);
        WATERFLOW_FLUSH(acc, count, o);
      }
    }
  }
  for (; i < n; i++) {
    uint64_t f = fields[s[i]];
    acc |= (f & 0xffffffffu) << count;
    count += (long)(f >> 32);
    WATERFLOW_FLUSH(acc, count, o);
  }
  *accp = acc;
  *countp = count;
  *op = o;
  return i;
}

#if defined(__x86_64__)
/* 64 literals a step with AVX-512 (VBMI's 128-byte table lookups): each byte's code and length
   looked up in one instruction per table half, joined in pairs, then in fours, in vector lanes,
   leaving 16 stores for 64 codes. A step whose four joined codes pass 56 bits is coded by the
   portable loop. */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static inline long waterflow_code_literals_avx512(
    const uint8_t *s, long n, const uint64_t *fields, const uint8_t *tables, uint64_t *accp,
    long *countp, uint8_t **op) {
  __m512i t[12];
  for (int k = 0; k < 12; k++) t[k] = _mm512_loadu_si512((const void *)(tables + 64 * k));
  const __m512i low16 = _mm512_set1_epi32(0xffff);
  const __m512i low32 = _mm512_set1_epi64(0xffffffff);
  const __m512i limit = _mm512_set1_epi64(56);
  uint64_t acc = *accp;
  long count = *countp;
  uint8_t *o = *op;
  uint64_t values[16], lengths[16];
  long i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i b = _mm512_loadu_si512((const void *)(s + i));
    __mmask64 high = _mm512_movepi8_mask(b);
    __m512i len = _mm512_mask_blend_epi8(
        high, _mm512_permutex2var_epi8(t[0], b, t[1]), _mm512_permutex2var_epi8(t[2], b, t[3]));
    __m512i lo = _mm512_mask_blend_epi8(
        high, _mm512_permutex2var_epi8(t[4], b, t[5]), _mm512_permutex2var_epi8(t[6], b, t[7]));
    __m512i hi = _mm512_mask_blend_epi8(
        high, _mm512_permutex2var_epi8(t[8], b, t[9]), _mm512_permutex2var_epi8(t[10], b, t[11]));
    __mmask8 tooLong = 0;
    for (int half = 0; half < 2; half++) {
      __m256i len8 = half ? _mm512_extracti64x4_epi64(len, 1) : _mm512_castsi512_si256(len);
      __m256i lo8 = half ? _mm512_extracti64x4_epi64(lo, 1) : _mm512_castsi512_si256(lo);
      __m256i hi8 = half ? _mm512_extracti64x4_epi64(hi, 1) : _mm512_castsi512_si256(hi);
      __m512i code16 = _mm512_or_si512(
          _mm512_cvtepu8_epi16(lo8), _mm512_slli_epi16(_mm512_cvtepu8_epi16(hi8), 8));
      __m512i len16 = _mm512_cvtepu8_epi16(len8);
      /* Pairs: the second code above the first's bits; then fours the same way. */
      __m512i firstLength = _mm512_and_si512(len16, low16);
      __m512i v32 = _mm512_or_si512(
          _mm512_and_si512(code16, low16),
          _mm512_sllv_epi32(_mm512_srli_epi32(code16, 16), firstLength));
      __m512i l32 = _mm512_add_epi32(firstLength, _mm512_srli_epi32(len16, 16));
      __m512i firstPair = _mm512_and_si512(l32, low32);
      __m512i v64 = _mm512_or_si512(
          _mm512_and_si512(v32, low32), _mm512_sllv_epi64(_mm512_srli_epi64(v32, 32), firstPair));
      __m512i l64 = _mm512_add_epi64(firstPair, _mm512_srli_epi64(l32, 32));
      tooLong |= _mm512_cmpgt_epu64_mask(l64, limit);
      _mm512_storeu_si512((void *)(values + 8 * half), v64);
      _mm512_storeu_si512((void *)(lengths + 8 * half), l64);
    }
    if (tooLong) {
      waterflow_code_literals_portable(s + i, 0, 64, fields, &acc, &count, &o);
      continue;
    }
    for (int k = 0; k < 16; k++) {
      acc |= values[k] << count;
      count += (long)lengths[k];
      WATERFLOW_FLUSH(acc, count, o);
    }
  }
  *accp = acc;
  *countp = count;
  *op = o;
  return i;
}
#endif

/* Codes `n` literal bytes with `fields` (per byte value: the bit-reversed code in the low 32 bits,
   its length, at most 15, above them; `tables` holds the same as waterflow_literal_tables makes
   them) into the DEFLATE bit stream at *out: *buffer holds *bits (< 32) pending bits on entry, and
   fewer than 8 on return, with the whole bytes stored. Several codes are joined before each
   store, as photo residuals' short codes allow; one store per byte's code was most of a photo
   frame's time. Needs 8 bytes of slack after the output. `vector` 0 keeps to the portable code;
   the bits are the same. */
static inline void waterflow_code_literals(
    const uint8_t *s, long n, const uint64_t *fields, const uint8_t *tables, uint64_t *buffer,
    long *bits, uint8_t **out, int vector) {
  uint64_t acc = *buffer;
  long count = *bits;
  uint8_t *o = *out;
  WATERFLOW_FLUSH(acc, count, o);
  long done = 0;
#if defined(__x86_64__)
  if (vector && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw"))
    done = waterflow_code_literals_avx512(s, n, fields, tables, &acc, &count, &o);
#endif
  (void)vector; (void)tables;
  waterflow_code_literals_portable(s, done, n, fields, &acc, &count, &o);
  *buffer = acc;
  *bits = count;
  *out = o;
}
#undef WATERFLOW_FLUSH

#endif
