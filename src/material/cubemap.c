/* Cube maps (material.h): a stage's `cubeMap NAME` or `cameraCubeMap NAME` read as six faces,
 * as Image_files.cpp R_LoadCubeImages reads them, into one image of the faces one under
 * another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "material/material_int.h"

/* The files' suffixes, in the order of the faces (GL_TEXTURE_CUBE_MAP_POSITIVE_X + i, which
 * idImage::GenerateCubeImage uploads them to): R_LoadCubeImages' axisSides and cameraSides. */
static const char *const SIDES[2][6] = {
    { "_px", "_nx", "_py", "_ny", "_pz", "_nz" },
    { "_forward", "_back", "_left", "_right", "_up", "_down" },
};

static uint8_t *texel(uint8_t *px, int n, int x, int y)
{
    return px + ((size_t)y * (size_t)n + (size_t)x) * 4;
}

/* R_RotatePic (a transpose: texel (x, y) from (y, x)), R_HorizontalFlip, R_VerticalFlip
 * (Image_process.cpp) of a square face of side n. */
static void transpose(uint8_t *px, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = y + 1; x < n; x++) {
            uint8_t t[4], *a = texel(px, n, x, y), *b = texel(px, n, y, x);

            memcpy(t, a, 4);
            memcpy(a, b, 4);
            memcpy(b, t, 4);
        }
}

static void flip(uint8_t *px, int n, bool horizontal)
{
    for (int y = 0; y < (horizontal ? n : n / 2); y++)
        for (int x = 0; x < (horizontal ? n / 2 : n); x++) {
            uint8_t t[4], *a = texel(px, n, x, y);
            uint8_t *b = horizontal ? texel(px, n, n - 1 - x, y) : texel(px, n, x, n - 1 - y);

            memcpy(t, a, 4);
            memcpy(a, b, 4);
            memcpy(b, t, 4);
        }
}

/* R_LoadCubeImages, "convert from "camera" images to native cube map images". */
static void camera_to_native(uint8_t *px, int n, int face)
{
    if (face == 0 || face == 1 || face >= 4)
        transpose(px, n);
    if (face == 1 || face == 3)
        flip(px, n, true);
    if (face == 1 || face == 2)
        flip(px, n, false);
}

/* Reads face i of the cube named by prog into *face: the image NAME + suffix, found as any
 * image is (mat_eval_program). Its sources join *src. */
static mc_status read_face(const mc_mtr_prog *prog, int camera, int i, mc_vfs *vfs,
                           mc_image *face, bool *fell_back, strbuf *src, px_budget *pixels,
                           mc_error *err)
{
    char name[1100];
    mc_mtr_prog fp = *prog;
    char *from = NULL;
    mc_status st;

    if (snprintf(name, sizeof name, "%s%s", prog->name, SIDES[camera][i]) >= (int)sizeof name)
        return mc_error_set(err, MC_ERR_LIMIT, NULL, prog->line, prog->col,
                            "cube map name too long");
    fp.name = name;
    st = mat_eval_program(&fp, vfs, face, fell_back, &from, pixels, err);
    if (st == MC_OK)
        mat_sb_add(src, "%s", from ? from : name);
    free(from);
    return st;
}

/* Stacks faces[0..5] (square, side n) into *out, each turned as a camera face when camera. */
static bool stack_faces(mc_image faces[6], int n, int camera, mc_image *out)
{
    if (!mat_make_image(n, 6 * n, out))
        return false;
    for (int i = 0; i < 6; i++) {
        uint8_t *dst = texel(out->pixels, n, 0, i * n);

        for (int y = 0; y < n; y++)
            memcpy(texel(dst, n, 0, y), px_at(&faces[i], 0, y), (size_t)n * 4);
        if (camera)
            camera_to_native(dst, n, i);
    }
    return true;
}

mc_status mat_eval_cube(const mc_mtr_prog *prog, mc_cube kind, mc_vfs *vfs, mc_image *out,
                        bool *fell_back, char **sources, px_budget *pixels, mc_error *err)
{
    mc_image faces[6];
    strbuf src = { 0 };
    int camera = kind == MC_CUBE_CAMERA, got = 0;
    mc_status st = MC_OK;

    memset(faces, 0, sizeof faces);
    memset(out, 0, sizeof *out);
    *fell_back = false;
    /* the engine stops at the first face it cannot load or whose size differs from the first
     * face's ("Mismatched sizes on cube map"), and the image is then its default */
    for (; got < 6 && st == MC_OK && !*fell_back; got++) {
        st = read_face(prog, camera, got, vfs, &faces[got], fell_back, &src, pixels, err);
        if (st == MC_OK && !*fell_back &&
            (faces[got].width != faces[0].width || faces[got].height != faces[0].width)) {
            mat_sb_add(&src, "%s%s is %dx%d: a cube map's faces are square and of one size",
                       prog->name, SIDES[camera][got], faces[got].width, faces[got].height);
            *fell_back = true;
        }
    }
    if (st == MC_OK && *fell_back) {
        mc_image box;

        if (!mc_material_builtin("_default", &box))
            st = MC_ERR_NOMEM;
        for (int i = 0; i < 6 && st == MC_OK; i++) {
            mc_image_release(&faces[i]);
            faces[i] = box;
        }
        if (st == MC_OK && !stack_faces(faces, box.width, 0, out))
            st = MC_ERR_NOMEM;
        mc_image_release(&box);
        memset(faces, 0, sizeof faces);
    } else if (st == MC_OK && !stack_faces(faces, faces[0].width, camera, out)) {
        st = MC_ERR_NOMEM;
    }
    for (int i = 0; i < 6; i++)
        mc_image_release(&faces[i]);
    if (st == MC_OK && src.failed)
        st = MC_ERR_NOMEM;
    if (st == MC_OK && sources)
        *sources = src.s, src.s = NULL;
    free(src.s);
    if (st == MC_ERR_NOMEM)
        mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st != MC_OK)
        mc_image_release(out);
    return st;
}
