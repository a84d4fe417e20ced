/* Every public header of md5cine in one include. Each header states the contract of its own
 * module; docs/library.md shows how they fit together. */
#ifndef MC_MD5CINE_H
#define MC_MD5CINE_H

#include <md5cine/version.h>

#include <md5cine/error.h>
#include <md5cine/error_source.h>
#include <md5cine/types.h>
#include <md5cine/arena.h>
#include <md5cine/fileio.h>
#include <md5cine/json.h>
#include <md5cine/limits.h>
#include <md5cine/mtr_keywords.h>
#include <md5cine/mathx.h>

#include <md5cine/md5mesh.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5camera.h>
#include <md5cine/framecmd.h>

#include <md5cine/pose.h>
#include <md5cine/timeline.h>
#include <md5cine/plan.h>
#include <md5cine/view.h>
#include <md5cine/audio.h>
#include <md5cine/mixer.h>

#include <md5cine/scene.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/frame_jobs.h>
#include <md5cine/pipeline.h>
#include <md5cine/soundtrack.h>

#include <md5cine/render.h>
#include <md5cine/encode.h>
#include <md5cine/audio_in.h>
#include <md5cine/chunk.h>
#include <md5cine/chunk_tags.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>
#include <md5cine/material.h>
#include <md5cine/scene_materials.h>
#include <md5cine/mtr_expr.h>
#include <md5cine/decl_index.h>
#include <md5cine/mtr.h>
#include <md5cine/material_eval.h>
#include <md5cine/skin.h>
#include <md5cine/sndshd.h>
#include <md5cine/entitydef.h>
#include <md5cine/vfs.h>
#include <md5cine/compare.h>
#include <md5cine/refcheck.h>
#include <md5cine/refpair.h>
#include <md5cine/audio_compare.h>
#include <md5cine/sheet.h>
#include <md5cine/report.h>

#include <md5cine/output_kinds.h>
#include <md5cine/output.h>
#include <md5cine/png_sequence.h>
#include <md5cine/render_run.h>

#endif
