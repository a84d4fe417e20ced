/* The passes drawn after every opaque item (render_int.h): today the translucent items. */
#include "gpu/render_int.h"

/* Draws the frame's translucent items in submission order over the opaque ones: depth test
 * on, depth writes off, blended as "blend" (source alpha over the frame, alpha kept
 * premultiplied as in the overlay). Lit with lights, an item is drawn once with the ambient
 * light blended that way, then once per light added with its alpha (GL_SRC_ALPHA, GL_ONE), so
 * that the item shows (ambient + sum of lights) * a + dst * (1 - a). */
void gpu_draw_translucent(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    int any = 0, lit = r->shading == MC_SHADING_LIT && r->fv.num_lights > 0;

    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        if (!sl->pending)
            continue;
        if (!any) {
            gl->DepthMask(GL_FALSE);
            gl->Enable(GL_BLEND);
            any = 1;
        }
        gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        gpu_draw_slot(r, sl, lit ? P_AMBIENT : P_RIG, -1);
        if (lit) {
            gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ZERO, GL_ONE);
            for (int l = 0; l < r->fv.num_lights; l++) {
                gpu_bind_light(r, l);
                gpu_draw_slot(r, sl, P_LIGHT, l);
            }
            gpu_unbind_light(r);
        }
        sl->pending = 0;
    }
    if (any) {
        gl->DepthMask(GL_TRUE);
        gl->Disable(GL_BLEND);
    }
    gl->Disable(GL_POLYGON_OFFSET_FILL);
}
