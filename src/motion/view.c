/* Camera views: see view.h. */
#include <math.h>

#include <md5cine/mathx.h>
#include <md5cine/view.h>

static float fov_from_tan(double t)
{
    return (float)(2.0 * atan(t) * 180.0 / 3.14159265358979323846);
}

static double half_tan(float fov_deg)
{
    return tan((double)fov_deg * 3.14159265358979323846 / 360.0);
}

void mc_view_fov(float fov, int width, int height, mc_fov_mode mode, float *fov_x,
                 float *fov_y)
{
    double aspect = (double)width / (double)height;
    if (mode == MC_FOV_DOOM) {
        double ty = half_tan(fov) * 3.0 / 4.0; /* Doom's 640 x 480 vertical fov */
        double tx = aspect * ty;
        if (tx >= half_tan(fov)) {
            *fov_x = fov_from_tan(tx);
            *fov_y = fov_from_tan(ty);
            return;
        }
        /* Narrower than 4:3: Doom keeps fov_x and derives fov_y from the aspect. */
    }
    *fov_x = fov;
    *fov_y = fov_from_tan(half_tan(fov) / aspect);
}

mc_mat4 mc_view_matrix(mc_vec3 o, const mc_mat3 *axis)
{
    mc_vec3 f = { axis->m[0][0], axis->m[0][1], axis->m[0][2] };
    mc_vec3 l = { axis->m[1][0], axis->m[1][1], axis->m[1][2] };
    mc_vec3 u = { axis->m[2][0], axis->m[2][1], axis->m[2][2] };
    mc_mat4 v = { { -l.x, u.x, -f.x, 0.0f, -l.y, u.y, -f.y, 0.0f, -l.z, u.z, -f.z, 0.0f,
                    mc_v3_dot(l, o), -mc_v3_dot(u, o), mc_v3_dot(f, o), 1.0f } };
    return v;
}

mc_mat4 mc_view_projection(float fov_x, float fov_y, float znear)
{
    mc_mat4 p = { { 0 } };
    p.m[0] = (float)(1.0 / half_tan(fov_x));
    p.m[5] = (float)(1.0 / half_tan(fov_y));
    p.m[10] = -0.999f;
    p.m[11] = -1.0f;
    p.m[14] = -2.0f * znear;
    return p;
}

void mc_view_from_sample(const mc_camera *cam, const mc_timeline_sample *s, int width,
                         int height, mc_fov_mode mode, mc_view *out)
{
    const mc_camera_frame *a = &cam->frames[s->stored];
    mc_vec3 pos = a->pos;
    mc_quat rot = a->rot;
    float fov = a->fov;
    if (s->next != s->stored && s->lerp > 0.0f) {
        /* idCameraAnim::GetViewParms: a (1 - lerp) + b lerp for position and fov. */
        const mc_camera_frame *b = &cam->frames[s->next];
        float t = s->lerp, u = 1.0f - s->lerp;
        pos = mc_v3_add(mc_v3_scale(a->pos, u), mc_v3_scale(b->pos, t));
        fov = a->fov * u + b->fov * t;
        rot = mc_quat_slerp(a->rot, b->rot, t);
    }
    out->origin = pos;
    out->axis = mc_quat_to_mat3(rot);
    out->fov = fov;
    mc_view_fov(fov, width, height, mode, &out->fov_x, &out->fov_y);
    out->view = mc_view_matrix(pos, &out->axis);
    out->proj = mc_view_projection(out->fov_x, out->fov_y, MC_VIEW_ZNEAR);
}

void mc_view_at_frame(const mc_camera *cam, mc_rate fps, int64_t k, int width, int height,
                      mc_fov_mode mode, mc_view *out, mc_timeline_sample *sample)
{
    mc_timeline_sample s;
    mc_timeline_sample_frame(cam, fps, k, &s);
    mc_view_from_sample(cam, &s, width, height, mode, out);
    if (sample)
        *sample = s;
}

void mc_view_at_time(const mc_camera *cam, double t, int width, int height, mc_fov_mode mode,
                     mc_view *out, mc_timeline_sample *sample)
{
    mc_timeline_sample s;
    mc_timeline_sample_time(cam, t, &s);
    mc_view_from_sample(cam, &s, width, height, mode, out);
    if (sample)
        *sample = s;
}
