/* The passes drawn after every opaque item (render_int.h): today the translucent items. */
#include "gpu/render_int.h"

/* Draws the frame's translucent items in submission order over the opaque ones: depth test
 * on, depth writes off, blended as "blend" (source alpha over the frame, alpha kept
 * premultiplied as in the overlay). */
void gpu_draw_translucent(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    int any = 0;

    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        if (!sl->pending)
            continue;
        if (!any) {
            gl->DepthMask(GL_FALSE);
            gl->Enable(GL_BLEND);
            gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE,
                                  GL_ONE_MINUS_SRC_ALPHA);
            any = 1;
        }
        gpu_draw_slot(r, sl);
        sl->pending = 0;
    }
    if (any) {
        gl->DepthMask(GL_TRUE);
        gl->Disable(GL_BLEND);
    }
    gl->Disable(GL_POLYGON_OFFSET_FILL);
}
