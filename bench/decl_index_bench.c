/* Declaration index speed: the five kinds a material set indexes (material, skin, table, sound,
 * entityDef) over 16 MB of generated declarations -- materials, entityDefs, sound shaders and
 * skins in turn, the mix of a game's declaration folders -- read five times, once per kind
 * (mc_decl_index_text), against one reading for all of them (mc_decl_index_kinds). Prints the
 * best of 9 CPU times of each and their ratio, both measured in the same process.
 *
 *   cmake --build build --target decl_index_bench && build/bench/decl_index_bench
 *
 * Figures only: nothing is asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <md5cine/mtr.h>

#define TEXT_BYTES ((size_t)16 << 20)
#define RUNS       9

static const char *const KINDS[] = { "material", "skin", "table", "sound", "entityDef" };
#define NUM_KINDS 5

static double cpu_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fills t (TEXT_BYTES) with declarations; returns the bytes written. */
static size_t make_text(char *t)
{
    size_t n = 0;

    for (int i = 0; n + 400 < TEXT_BYTES; i++) {
        int w = 0;

        switch (i % 4) {
        case 0:
            w = snprintf(t + n, TEXT_BYTES - n,
                         "textures/base/wall%d {\n  diffusemap textures/base/wall%d_d\n"
                         "  bumpmap textures/base/wall%d_local\n"
                         "  { blend add map textures/base/wall%d_g }\n}\n",
                         i, i, i, i);
            break;
        case 1:
            w = snprintf(t + n, TEXT_BYTES - n,
                         "entityDef monster_%d {\n  \"inherit\" \"monster_default\"\n"
                         "  \"model\" \"monster_%d\"\n  \"snd_footstep\" \"step_%d\"\n}\n",
                         i, i, i);
            break;
        case 2:
            w = snprintf(t + n, TEXT_BYTES - n,
                         "sound step_%d {\n  minDistance 1 maxDistance 20\n"
                         "  sound/steps/s%d_a.wav sound/steps/s%d_b.wav\n}\n",
                         i, i, i);
            break;
        default:
            w = snprintf(t + n, TEXT_BYTES - n, "skin skins/s%d {\n  models/a%d models/b%d\n}\n", i,
                         i, i);
            break;
        }
        n += (size_t)w;
    }
    return n;
}

int main(void)
{
    char *text = malloc(TEXT_BYTES);
    double five = 1e9, one = 1e9;
    size_t n;
    mc_error err;

    if (!text)
        return 1;
    n = make_text(text);
    for (int r = 0; r < RUNS; r++) {
        mc_mtr_index idx[NUM_KINDS];
        double t0 = cpu_s(), d;

        for (int k = 0; k < NUM_KINDS; k++)
            if (mc_decl_index_text(text, n, "bench", "material", KINDS[k], NULL, &idx[k], &err) !=
                MC_OK)
                return 1;
        d = cpu_s() - t0;
        five = d < five ? d : five;
        for (int k = 0; k < NUM_KINDS; k++)
            mc_mtr_index_release(&idx[k]);
        t0 = cpu_s();
        if (mc_decl_index_kinds(text, n, "bench", "material", KINDS, NUM_KINDS, NULL, idx, &err) !=
            MC_OK)
            return 1;
        d = cpu_s() - t0;
        one = d < one ? d : one;
        for (int k = 0; k < NUM_KINDS; k++)
            mc_mtr_index_release(&idx[k]);
    }
    printf("%.1f MB of declarations, 5 kinds: one reading per kind %.1f ms, one reading for all "
           "%.1f ms (%.2fx)\n",
           (double)n / 1048576.0, five * 1e3, one * 1e3, five / one);
    free(text);
    return 0;
}
