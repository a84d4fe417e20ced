/* Where a shadow volume can count (shadow_volume.h): boxes, the pyramid of a caster's rays from
 * a light, and the screen rectangle of a box clipped by planes. CPU math, no GL. Computed in
 * double precision; the caller widens the rectangle by a margin. */
#include <float.h>
#include <math.h>

#include "gpu/shadow_volume.h"

void gpu_box_of(const mc_vec3 *pos, int n, const float m[16], gpu_box *out)
{
    float lo[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, hi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };

    for (int i = 0; i < n; i++) {
        const float p[3] = { pos[i].x, pos[i].y, pos[i].z };

        for (int c = 0; c < 3; c++) {
            lo[c] = p[c] < lo[c] ? p[c] : lo[c];
            hi[c] = p[c] > hi[c] ? p[c] : hi[c];
        }
    }
    /* each world axis of m * box spans the sum of |m_ij| * half extent around m * centre */
    for (int r = 0; r < 3; r++) {
        float centre = m[12 + r], half = 0.0f;

        for (int c = 0; c < 3; c++) {
            float a = m[c * 4 + r];

            centre += a * 0.5f * (lo[c] + hi[c]);
            half += fabsf(a) * 0.5f * (hi[c] - lo[c]);
        }
        out->min[r] = centre - half;
        out->max[r] = centre + half;
    }
}

static void corner(const gpu_box *b, int k, double out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = (k >> c) & 1 ? b->max[c] : b->min[c];
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void set_plane(float out[4], const double n[3], const double l[3], double offset)
{
    for (int c = 0; c < 3; c++)
        out[c] = (float)n[c];
    out[3] = (float)(offset - dot3(n, l));
}

int gpu_shadow_pyramid(const float l[3], const gpu_box *c, float planes[5][4])
{
    const double lo[3] = { l[0], l[1], l[2] };
    double d[3], u[3], v[3], len = 0.0, zmin = DBL_MAX;
    double tmin[2] = { DBL_MAX, DBL_MAX }, tmax[2] = { -DBL_MAX, -DBL_MAX };

    for (int k = 0; k < 3; k++) {
        d[k] = 0.5 * ((double)c->min[k] + (double)c->max[k]) - lo[k];
        len += d[k] * d[k];
    }
    len = sqrt(len);
    if (!(len > 0.0))
        return 0;
    for (int k = 0; k < 3; k++)
        d[k] /= len;
    /* u: the axis least along d, made perpendicular; v = d x u */
    {
        int a = fabs(d[0]) < fabs(d[1]) ? (fabs(d[0]) < fabs(d[2]) ? 0 : 2)
                                        : (fabs(d[1]) < fabs(d[2]) ? 1 : 2);
        double ul = 0.0;

        for (int k = 0; k < 3; k++)
            u[k] = (k == a) - d[a] * d[k];
        ul = sqrt(dot3(u, u));
        for (int k = 0; k < 3; k++)
            u[k] /= ul;
        v[0] = d[1] * u[2] - d[2] * u[1];
        v[1] = d[2] * u[0] - d[0] * u[2];
        v[2] = d[0] * u[1] - d[1] * u[0];
    }
    for (int k = 0; k < 8; k++) {
        double p[3], e[3], z;

        corner(c, k, p);
        for (int i = 0; i < 3; i++)
            e[i] = p[i] - lo[i];
        z = dot3(e, d);
        /* every corner well in front of l: an apex angle under about 170 degrees */
        if (!(z > 0.1 * sqrt(dot3(e, e))))
            return 0;
        zmin = z < zmin ? z : zmin;
        for (int i = 0; i < 2; i++) {
            double t = dot3(e, i ? v : u) / z;

            tmin[i] = t < tmin[i] ? t : tmin[i];
            tmax[i] = t > tmax[i] ? t : tmax[i];
        }
    }
    /* widened, so that a point the rasteriser counts in by depth precision (a surface that
     * touches the volume, pushed back by the volume's polygon offset) stays inside */
    for (int i = 0; i < 2; i++) {
        double grow = 0.02 * (tmax[i] - tmin[i]) + 0.01;

        tmin[i] -= grow;
        tmax[i] += grow;
    }
    zmin *= 0.9;
    for (int i = 0; i < 2; i++) {
        const double *a = i ? v : u;
        double nlo[3], nhi[3];

        /* (x - l).a >= tmin (x - l).d and (x - l).a <= tmax (x - l).d */
        for (int k = 0; k < 3; k++) {
            nlo[k] = a[k] - tmin[i] * d[k];
            nhi[k] = tmax[i] * d[k] - a[k];
        }
        set_plane(planes[2 * i], nlo, lo, 0.0);
        set_plane(planes[2 * i + 1], nhi, lo, 0.0);
    }
    /* (x - l).d >= zmin: the volume starts at the caster */
    set_plane(planes[4], d, lo, -zmin);
    return 1;
}

enum { MAX_POLY = 4 + 8 };

/* Clips polygon in[0..n-1] to a x + b y + c z + d >= 0 into out; returns out's count. */
static int clip_poly(const double (*in)[3], int n, const double pl[4], double (*out)[3])
{
    int m = 0;

    for (int i = 0; i < n; i++) {
        const double *a = in[i], *b = in[(i + 1) % n];
        double da = dot3(pl, a) + pl[3], db = dot3(pl, b) + pl[3];

        if (da >= 0.0)
            for (int k = 0; k < 3; k++)
                out[m][k] = a[k];
        m += da >= 0.0;
        if ((da >= 0.0) != (db >= 0.0)) {
            double t = da / (da - db);

            for (int k = 0; k < 3; k++)
                out[m][k] = a[k] + t * (b[k] - a[k]);
            m++;
        }
    }
    return m;
}

int gpu_box_rect(const gpu_box *b, const float (*planes)[4], int n, const float vp[16],
                 int width, int height, int margin, int rect[4])
{
    /* the box's faces: corner numbers (bit c set: max on axis c), wound around the face */
    static const int faces[6][4] = { { 0, 2, 6, 4 }, { 1, 5, 7, 3 }, { 0, 4, 5, 1 },
                                     { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 6, 7, 5 } };
    /* clip w >= a small positive value: in front of the camera */
    const double front[4] = { (double)vp[3], (double)vp[7], (double)vp[11],
                              (double)vp[15] - 1e-6 };
    double x0 = DBL_MAX, y0 = DBL_MAX, x1 = -DBL_MAX, y1 = -DBL_MAX;
    int any = 0;

    for (int f = 0; f < 6; f++) {
        double poly[2][MAX_POLY][3];
        int cur = 0, m = 4;

        for (int k = 0; k < 4; k++)
            corner(b, faces[f][k], poly[0][k]);
        for (int i = 0; i <= n && m > 0; i++) {
            double pl[4];

            for (int k = 0; k < 4; k++)
                pl[k] = i < n ? (double)planes[i][k] : front[k];
            m = clip_poly((const double(*)[3])poly[cur], m, pl, poly[cur ^ 1]);
            cur ^= 1;
        }
        for (int k = 0; k < m; k++) {
            const double *p = poly[cur][k];
            double c[4];

            for (int r = 0; r < 4; r++)
                c[r] = (double)vp[r] * p[0] + (double)vp[4 + r] * p[1] + (double)vp[8 + r] * p[2] +
                       (double)vp[12 + r];
            if (!(c[3] > 0.0))
                c[3] = 1e-6; /* on the camera's plane: off any side of the screen */
            {
                /* the shader negates clip y: GL's row 0 is the image's top row */
                double x = (c[0] / c[3] * 0.5 + 0.5) * width;
                double y = (-c[1] / c[3] * 0.5 + 0.5) * height;

                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0;
                y1 = y > y1 ? y : y1;
                any = 1;
            }
        }
    }
    if (!any)
        return 0;
    x0 = floor(x0) - margin;
    y0 = floor(y0) - margin;
    x1 = ceil(x1) + margin;
    y1 = ceil(y1) + margin;
    x0 = x0 < 0.0 ? 0.0 : x0;
    y0 = y0 < 0.0 ? 0.0 : y0;
    x1 = x1 > width ? width : x1;
    y1 = y1 > height ? height : y1;
    if (!(x1 > x0 && y1 > y0))
        return 0;
    rect[0] = (int)x0;
    rect[1] = (int)y0;
    rect[2] = (int)(x1 - x0);
    rect[3] = (int)(y1 - y0);
    return 1;
}
