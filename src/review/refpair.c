/* Checking source B against reference A (refpair.h): which frames pair, and the size the
 * check is made for. The offset is only looked up here (A's frame k + offset exists); the
 * checker applies it when it reads the reference. */
#include <md5cine/refpair.h>

#include <stdint.h>
#include <stdlib.h>

struct mc_refpair {
    mc_frames_in *a, *b;
    const char *pa, *pb; /* the paths as given (owned by the sources) */
    mc_frame_no offset;
    bool has_range;
    mc_frame_no first, last;
    size_t begin, count; /* the pairs checked: begin .. begin + count - 1 of all_pairs */
    int width, height;
};

static bool is_image(const mc_frames_in *s)
{
    return mc_frames_kind_of(s) == MC_FRAMES_IMAGE;
}

static bool in_range(const mc_refpair *p, mc_frame_no k)
{
    return !p->has_range || (k >= p->first && k <= p->last);
}

static bool a_has(const mc_refpair *p, mc_frame_no k, size_t *ia)
{
    return mc_frames_find(p->a, (long)(k + p->offset), ia);
}

static mc_status missing(mc_frame_no number, const char *has, const char *lacks, mc_error *err)
{
    return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0, "frame %lld is in '%s' but not in '%s'",
                        (long long)number, has, lacks);
}

/* A range: B holds every frame of it. */
static mc_status check_range(const mc_refpair *p, mc_error *err)
{
    mc_frame_no expect = p->first;

    for (size_t i = 0; i < mc_frames_count(p->b); i++) {
        mc_frame_no k = mc_frames_number(p->b, i);

        if (!in_range(p, k))
            continue;
        if (k != expect)
            break;
        expect++;
    }
    if (expect <= p->last)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "--frames %lld-%lld: frame %lld is not in '%s'",
                            (long long)p->first, (long long)p->last, (long long)expect, p->pb);
    return MC_OK;
}

/* Two sequences hold the same frame numbers, or B's placed frames are in A. */
static mc_status check_sets(const mc_refpair *p, bool placed, mc_error *err)
{
    size_t na = mc_frames_count(p->a), nb = mc_frames_count(p->b), k;
    bool part = placed || mc_frames_chunk(p->b) != NULL || p->has_range;

    if (is_image(p->a) || is_image(p->b))
        return MC_OK;
    if (p->has_range && check_range(p, err) != MC_OK)
        return err->code;
    for (size_t i = 0; i < na && !part; i++)
        if (!mc_frames_find(p->b, mc_frames_number(p->a, i), &k))
            return missing(mc_frames_number(p->a, i), p->pa, p->pb, err);
    for (size_t i = 0; i < nb; i++)
        if (in_range(p, mc_frames_number(p->b, i)) && !a_has(p, mc_frames_number(p->b, i), &k))
            return missing(mc_frames_number(p->b, i) + p->offset, p->pb, p->pa, err);
    if (na != nb && !part) /* only with repeated numbers, which the sources reject */
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "'%s' holds %zu frames but '%s' holds %zu", p->pa, na, p->pb, nb);
    return MC_OK;
}

/* Pair i of all of them (range or not): B's frame at index *ib, checked as frame *k. Returns
 * how many pairs there are, or -1 with err set when an image's partner is missing. */
static long all_pairs(const mc_refpair *p, size_t i, size_t *ib, mc_frame_no *k, mc_error *err)
{
    bool a_single = is_image(p->a), b_single = is_image(p->b);
    size_t ia;

    if (a_single && !b_single) {
        *k = mc_frames_number(p->a, 0) - p->offset;
        if (!mc_frames_find(p->b, (long)*k, ib))
            return missing(*k, p->pa, p->pb, err), -1;
        return 1;
    }
    if (b_single && !a_single) {
        *ib = 0;
        *k = mc_frames_number(p->b, 0);
        if (!a_has(p, *k, &ia))
            return missing(*k, p->pb, p->pa, err), -1;
        return 1;
    }
    *ib = a_single ? 0 : i;
    *k = a_single ? mc_frames_number(p->a, 0) : mc_frames_number(p->b, i);
    return a_single ? 1 : (long)mc_frames_count(p->b);
}

/* The pairs inside the range: B's frames are in increasing order, so they are consecutive. */
static mc_status find_pairs(mc_refpair *p, mc_error *err)
{
    size_t ib;
    mc_frame_no k;
    long n = all_pairs(p, 0, &ib, &k, err);

    if (n < 0)
        return err->code;
    p->count = 0;
    for (long i = 0; i < n; i++) {
        all_pairs(p, (size_t)i, &ib, &k, err);
        if (!in_range(p, k))
            continue;
        if (p->count++ == 0)
            p->begin = (size_t)i;
    }
    if (p->count == 0)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "--frames %lld-%lld holds no frame of '%s'", (long long)p->first,
                            (long long)p->last, p->pb);
    return MC_OK;
}

/* The first pair's declared size when both agree, else the smaller one. */
static mc_status find_size(mc_refpair *p, mc_error *err)
{
    size_t ib, ia;
    mc_frame_no k;
    int aw = 0, ah = 0;
    mc_error ea;
    bool in_a;
    mc_status sa = MC_OK;

    all_pairs(p, p->begin, &ib, &k, err);
    /* A first: when neither reads, the error names A, the operand given first (one that only
     * A cannot read is that frame's row of the check) */
    in_a = a_has(p, k, &ia);
    if (in_a)
        sa = mc_frames_size(p->a, ia, &aw, &ah, &ea);
    if (mc_frames_size(p->b, ib, &p->width, &p->height, err) != MC_OK) {
        if (in_a && sa != MC_OK)
            *err = ea;
        return err->code;
    }
    if (in_a && sa == MC_OK && (double)aw * ah < (double)p->width * p->height) {
        p->width = aw;
        p->height = ah;
    }
    return MC_OK;
}

mc_status mc_refpair_open(const mc_refpair_desc *desc, mc_refpair **out, mc_error *err)
{
    mc_refpair *p;
    mc_status st;

    *out = NULL;
    if (!desc || !desc->reference || !desc->candidate)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "a check needs two frame sources");
    p = calloc(1, sizeof *p);
    if (!p)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    p->offset = desc->offset;
    p->has_range = desc->has_range;
    p->first = desc->first;
    p->last = desc->last;
    st = mc_frames_open(desc->reference, &p->a, err);
    if (st == MC_OK)
        st = mc_frames_open(desc->candidate, &p->b, err);
    if (st == MC_OK) {
        p->pa = mc_frames_path(p->a);
        p->pb = mc_frames_path(p->b);
        st = check_sets(p, desc->placed, err);
    }
    if (st == MC_OK)
        st = find_pairs(p, err);
    if (st == MC_OK)
        st = find_size(p, err);
    if (st != MC_OK) {
        mc_refpair_release(p);
        return st;
    }
    *out = p;
    return MC_OK;
}

void mc_refpair_release(mc_refpair *p)
{
    if (!p)
        return;
    mc_frames_release(p->a);
    mc_frames_release(p->b);
    free(p);
}

void mc_refpair_fill_desc(const mc_refpair *p, mc_refcheck_desc *d)
{
    d->reference = p->pa;
    d->candidate = p->pb;
    d->width = p->width;
    d->height = p->height;
    d->offset = p->offset;
    d->opts.lossy = d->opts.lossy || mc_frames_kind_of(p->b) == MC_FRAMES_VIDEO;
}

size_t mc_refpair_count(const mc_refpair *p)
{
    return p->count;
}

mc_frames_in *mc_refpair_reference(const mc_refpair *p)
{
    return p->a;
}

mc_frames_in *mc_refpair_candidate(const mc_refpair *p)
{
    return p->b;
}

mc_status mc_refpair_read(mc_refpair *p, size_t i, mc_refpair_frame *out, mc_error *err)
{
    size_t ib;
    mc_frame fb;

    *out = (mc_refpair_frame){ 0 };
    if (i >= p->count)
        return mc_error_set(err, MC_ERR_USAGE, p->pb, 0, 0, "pair %zu of %zu", i, p->count);
    all_pairs(p, p->begin + i, &ib, &out->k, err);
    out->file = mc_frames_file(p->b, ib);
    if (mc_frames_size(p->b, ib, &out->view.width, &out->view.height, err) != MC_OK)
        return err->code;
    if (out->view.width != p->width || out->view.height != p->height)
        return MC_OK;
    if (mc_frames_read(p->b, ib, &fb, err) != MC_OK)
        return err->code;
    out->view.width = fb.width;
    out->view.height = fb.height;
    out->view.stride = fb.stride;
    out->view.pixels = (uint8_t *)(uintptr_t)fb.rgba; /* only read; the view has no const form */
    return MC_OK;
}

const char *mc_refpair_reference_file(const mc_refpair *p, mc_frame_no k)
{
    size_t ia;

    if (a_has(p, k, &ia))
        return mc_frames_file(p->a, ia);
    return is_image(p->a) ? mc_frames_file(p->a, 0) : NULL;
}

mc_status mc_refpair_check_all(mc_refpair *p, mc_refcheck *c, mc_error *err)
{
    mc_refpair_frame f;

    for (size_t i = 0; i < p->count; i++) {
        if (mc_refpair_read(p, i, &f, err) != MC_OK)
            return err->code;
        if (mc_refcheck_frame(c, 0, &f.view, f.k, err) != MC_OK)
            return err->code;
    }
    return MC_OK;
}
