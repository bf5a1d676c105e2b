/* The network's kernels, each in a baseline version and versions for the vector unit (AVX2 and FMA;
 * AVX-512), chosen at run time from what the processor offers (gc_choose_kernels), as function pointers.
 *
 * gc_layer: out = bias + sum over n of values[n] * weights[slots[n]] (rows of `width`), a linear layer whose
 * input is sparse: only its non-zero slots are given. The baseline adds the rows one by one in the order
 * given, with no fused multiply-add, so it computes exactly what the plain loop does; the vector version
 * keeps a block of 64 outputs in registers while it adds every row into them (fused multiply-adds: the
 * results differ from the baseline's in their last bits).
 * gc_dot: start plus the dot product of two vectors of n floats; the baseline adds in order onto start, the
 * vector version in eight lanes of four accumulators.
 * gc_inputs and gc_positive: a layer's non-zero inputs listed in order, their slots and values (how many is
 * returned): the input layer's observation[k] * scale[k] that are not 0, a hidden layer's outputs that are
 * above 0 (the ReLU). Every version computes the same values and keeps the same ones; the AVX-512 version
 * writes whole registers, so `slots` and `values` need room for GC_LISTING_SLACK more than `n`.
 */
#ifndef GINCORE_KERNELS_H
#define GINCORE_KERNELS_H

#include <stdint.h>
#include <string.h>

#define GC_LISTING_SLACK 16

typedef void (*gc_layer_fn)(float *out, const float *bias, const float *weights, int width, const int *slots,
                            const float *values, int count);
typedef float (*gc_dot_fn)(const float *a, const float *b, int n, float start);
typedef int (*gc_inputs_fn)(const int8_t *observation, const float *scale, int n, int *slots, float *values);
typedef int (*gc_positive_fn)(const float *outputs, int n, int *slots, float *values);

/* Each slot is written and kept by counting it: which are zero follows no pattern a branch could learn. */
static int gc_inputs_baseline(const int8_t *observation, const float *scale, int n, int *slots, float *values)
{
    int count = 0;
    for (int k = 0; k < n; k++) {
        const float value = observation[k] * scale[k];
        slots[count] = k;
        values[count] = value;
        count += value != 0;
    }
    return count;
}

static int gc_positive_baseline(const float *outputs, int n, int *slots, float *values)
{
    int count = 0;
    for (int k = 0; k < n; k++) {
        const float value = outputs[k];
        slots[count] = k;
        values[count] = value;
        count += value > 0;
    }
    return count;
}

static void gc_layer_baseline(float *out, const float *bias, const float *weights, int width, const int *slots,
                              const float *values, int count)
{
    memcpy(out, bias, (size_t)width * sizeof(float));
    for (int n = 0; n < count; n++) {
        const float *row = weights + (size_t)slots[n] * (size_t)width;
        const float value = values[n];
        for (int k = 0; k < width; k++)
            out[k] += value * row[k];
    }
}

static float gc_dot_baseline(const float *a, const float *b, int n, float start)
{
    float sum = start;
    for (int k = 0; k < n; k++)
        sum += a[k] * b[k];
    return sum;
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define GINCORE_HAVE_AVX2 1
#include <immintrin.h>

/* Outputs start to end of a layer whose rows are `width` long. */
__attribute__((target("avx2,fma")))
static void gc_layer_avx2_part(float *out, const float *bias, const float *weights, int width, int start, int end,
                               const int *slots, const float *values, int count)
{
    for (; start + 64 <= end; start += 64) {  /* eight registers of outputs, every row added into them */
        __m256 a0 = _mm256_loadu_ps(bias + start), a1 = _mm256_loadu_ps(bias + start + 8);
        __m256 a2 = _mm256_loadu_ps(bias + start + 16), a3 = _mm256_loadu_ps(bias + start + 24);
        __m256 a4 = _mm256_loadu_ps(bias + start + 32), a5 = _mm256_loadu_ps(bias + start + 40);
        __m256 a6 = _mm256_loadu_ps(bias + start + 48), a7 = _mm256_loadu_ps(bias + start + 56);
        for (int n = 0; n < count; n++) {
            const float *row = weights + (size_t)slots[n] * (size_t)width + start;
            const __m256 v = _mm256_set1_ps(values[n]);
            a0 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row), a0);
            a1 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 8), a1);
            a2 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 16), a2);
            a3 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 24), a3);
            a4 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 32), a4);
            a5 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 40), a5);
            a6 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 48), a6);
            a7 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 56), a7);
        }
        _mm256_storeu_ps(out + start, a0); _mm256_storeu_ps(out + start + 8, a1);
        _mm256_storeu_ps(out + start + 16, a2); _mm256_storeu_ps(out + start + 24, a3);
        _mm256_storeu_ps(out + start + 32, a4); _mm256_storeu_ps(out + start + 40, a5);
        _mm256_storeu_ps(out + start + 48, a6); _mm256_storeu_ps(out + start + 56, a7);
    }
    for (; start + 8 <= end; start += 8) {
        __m256 a = _mm256_loadu_ps(bias + start);
        for (int n = 0; n < count; n++)
            a = _mm256_fmadd_ps(_mm256_set1_ps(values[n]),
                                _mm256_loadu_ps(weights + (size_t)slots[n] * (size_t)width + start), a);
        _mm256_storeu_ps(out + start, a);
    }
    for (; start < end; start++) {
        float sum = bias[start];
        for (int n = 0; n < count; n++)
            sum = __builtin_fmaf(values[n], weights[(size_t)slots[n] * (size_t)width + start], sum);
        out[start] = sum;
    }
}

__attribute__((target("avx2,fma")))
static void gc_layer_avx2(float *out, const float *bias, const float *weights, int width, const int *slots,
                          const float *values, int count)
{
    gc_layer_avx2_part(out, bias, weights, width, 0, width, slots, values, count);
}

__attribute__((target("avx2,fma")))
static float gc_dot_avx2(const float *a, const float *b, int n, float start)
{
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    int k = 0;
    for (; k + 32 <= n; k += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + k), _mm256_loadu_ps(b + k), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + k + 8), _mm256_loadu_ps(b + k + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + k + 16), _mm256_loadu_ps(b + k + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + k + 24), _mm256_loadu_ps(b + k + 24), s3);
    }
    for (; k + 8 <= n; k += 8)
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + k), _mm256_loadu_ps(b + k), s0);
    const __m256 s = _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3));
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    h = _mm_add_ss(h, _mm_shuffle_ps(h, h, 0x55));
    float sum = start + _mm_cvtss_f32(h);
    for (; k < n; k++)
        sum += a[k] * b[k];
    return sum;
}
/* Sixteen slots at a time: the kept lanes compressed into the front of a register, which is stored whole
 * (a compressing store to memory is slow on some processors). */
__attribute__((target("avx512f")))
static inline int gc_keep_avx512(__mmask16 keep, __m512 value, __m512i slot, int count, int *slots, float *values)
{
    _mm512_storeu_ps(values + count, _mm512_maskz_compress_ps(keep, value));
    _mm512_storeu_si512((void *)(slots + count), _mm512_maskz_compress_epi32(keep, slot));
    return count + __builtin_popcount(keep);
}

__attribute__((target("avx512f")))
static int gc_inputs_avx512(const int8_t *observation, const float *scale, int n, int *slots, float *values)
{
    int count = 0, k = 0;
    __m512i slot = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; k < n; k += 16) {
        const __mmask16 lanes = n - k >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - k)) - 1);
        int8_t tail[16] = {0};  /* the last bytes, when fewer than sixteen are left */
        const int8_t *bytes = observation + k;
        if (n - k < 16) {
            memcpy(tail, bytes, (size_t)(n - k));
            bytes = tail;
        }
        const __m512 counts = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)bytes)));
        const __m512 value = _mm512_mul_ps(counts, _mm512_maskz_loadu_ps(lanes, scale + k));
        count = gc_keep_avx512(_mm512_mask_cmp_ps_mask(lanes, value, _mm512_setzero_ps(), _CMP_NEQ_UQ), value, slot,
                               count, slots, values);
        slot = _mm512_add_epi32(slot, _mm512_set1_epi32(16));
    }
    return count;
}

__attribute__((target("avx512f")))
static int gc_positive_avx512(const float *outputs, int n, int *slots, float *values)
{
    int count = 0, k = 0;
    __m512i slot = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; k < n; k += 16) {
        const __mmask16 lanes = n - k >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - k)) - 1);
        const __m512 value = _mm512_maskz_loadu_ps(lanes, outputs + k);
        count = gc_keep_avx512(_mm512_mask_cmp_ps_mask(lanes, value, _mm512_setzero_ps(), _CMP_GT_OQ), value, slot,
                               count, slots, values);
        slot = _mm512_add_epi32(slot, _mm512_set1_epi32(16));
    }
    return count;
}

__attribute__((target("avx512f,avx2,fma")))
static void gc_layer_avx512(float *out, const float *bias, const float *weights, int width, const int *slots,
                            const float *values, int count)
{
    int start = 0;
    for (; start + 128 <= width; start += 128) {  /* eight registers of sixteen outputs */
        __m512 a0 = _mm512_loadu_ps(bias + start), a1 = _mm512_loadu_ps(bias + start + 16);
        __m512 a2 = _mm512_loadu_ps(bias + start + 32), a3 = _mm512_loadu_ps(bias + start + 48);
        __m512 a4 = _mm512_loadu_ps(bias + start + 64), a5 = _mm512_loadu_ps(bias + start + 80);
        __m512 a6 = _mm512_loadu_ps(bias + start + 96), a7 = _mm512_loadu_ps(bias + start + 112);
        for (int n = 0; n < count; n++) {
            const float *row = weights + (size_t)slots[n] * (size_t)width + start;
            const __m512 v = _mm512_set1_ps(values[n]);
            a0 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row), a0);
            a1 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 16), a1);
            a2 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 32), a2);
            a3 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 48), a3);
            a4 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 64), a4);
            a5 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 80), a5);
            a6 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 96), a6);
            a7 = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 112), a7);
        }
        _mm512_storeu_ps(out + start, a0); _mm512_storeu_ps(out + start + 16, a1);
        _mm512_storeu_ps(out + start + 32, a2); _mm512_storeu_ps(out + start + 48, a3);
        _mm512_storeu_ps(out + start + 64, a4); _mm512_storeu_ps(out + start + 80, a5);
        _mm512_storeu_ps(out + start + 96, a6); _mm512_storeu_ps(out + start + 112, a7);
    }
    if (start < width)  /* the last outputs, fewer than 128 */
        gc_layer_avx2_part(out, bias, weights, width, start, width, slots, values, count);
}
#else
#define GINCORE_HAVE_AVX2 0
#endif

static gc_layer_fn gc_layer = gc_layer_baseline;
static gc_dot_fn gc_dot = gc_dot_baseline;
static gc_inputs_fn gc_inputs = gc_inputs_baseline;
static gc_positive_fn gc_positive = gc_positive_baseline;

/* The widest kernels this processor (and this build) can run: 0 the baseline, 1 AVX2 and FMA, 2 AVX-512. */
static int gc_vector_available(void)
{
#if GINCORE_HAVE_AVX2
    __builtin_cpu_init();
    if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")))
        return 0;
    return __builtin_cpu_supports("avx512f") ? 2 : 1;
#else
    return 0;
#endif
}

/* Use the kernels of level `wanted` (0 the baseline, 1 AVX2 and FMA, 2 AVX-512), or the widest below it that
 * this processor runs; returns the level in use. AVX2's and AVX-512's layers give the same results to the
 * bit (each output is the same chain of fused multiply-adds), and share the dot product. */
static int gc_choose_kernels(int wanted)
{
    int level = gc_vector_available();
    if (wanted < level)
        level = wanted;
    gc_layer = gc_layer_baseline;
    gc_dot = gc_dot_baseline;
    gc_inputs = gc_inputs_baseline;
    gc_positive = gc_positive_baseline;
#if GINCORE_HAVE_AVX2
    if (level >= 1) {
        gc_layer = level == 2 ? gc_layer_avx512 : gc_layer_avx2;
        gc_dot = gc_dot_avx2;
    }
    if (level == 2) {
        gc_inputs = gc_inputs_avx512;
        gc_positive = gc_positive_avx512;
    }
#endif
    return level;
}

#endif
