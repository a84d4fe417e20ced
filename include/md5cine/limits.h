/* Every size and count md5cine checks, in one place, with the reason for each value.
 *
 * A limit here is checked before anything is allocated for the thing it limits, and a value
 * over it is an input error (exit status 2), never a failed allocation. The limits of the
 * libraries below md5cine (OSMesa's llvmpipe, libavutil, x264, stb_image) are at or above
 * these, so whatever passes these checks is not refused later for its size.
 *
 * Nothing here is used in a way that changes the bytes of a valid output. */
#ifndef MC_LIMITS_H
#define MC_LIMITS_H

/* ---- files ---- */

/* Largest file a parser reads (bytes): far above any real MD5 file. */
#define MC_LIMIT_FILE_BYTES ((size_t)1 << 30)

/* Longest number token (characters); a longer one is malformed. */
#define MC_LIMIT_NUMBER_LEN 320

/* ---- images (textures, PNG reference frames) ---- */

/* Largest image side (pixels) decoded or written: a 16384x16384 RGBA picture is 1 GiB. */
#define MC_LIMIT_IMAGE_SIDE 16384

/* ---- rendered frames ---- */

/* Output size, each side (pixels). 16384 is llvmpipe's largest renderbuffer
 * (GL_MAX_RENDERBUFFER_SIZE); 16 keeps the overlay text and the encoders' smallest blocks
 * inside the picture. */
#define MC_LIMIT_RENDER_MIN_SIDE 16
#define MC_LIMIT_RENDER_MAX_SIDE 16384

/* Largest video frame, in 16x16 macroblocks (ceil(w/16) * ceil(h/16)): H.264 level 6.2's
 * MaxFS, the largest picture any H.264 level allows (8192x4352; 7680x4320 fits). A larger
 * frame would play in no conforming decoder, and the libraries refuse well-formed requests
 * not far above it: libavutil refuses a picture with (w + 128) * (h + 128) >= INT_MAX / 8
 * (16384x16384 fails there, as "out of memory for a video frame"), and libavcodec's mpeg4
 * refuses a side over 8191. Checked with the size, before any file is created, so a video
 * that is too large is "too large" (exit 2). PNG outputs have only the side limits. */
#define MC_LIMIT_VIDEO_MAX_MACROBLOCKS 139264

/* Output frame rate (frames per second), and the frameRate of a camera or an anim: 1000 is
 * far above any video rate, and it bounds the count of output frames a scene can ask for. */
#define MC_LIMIT_FPS_MIN 1
#define MC_LIMIT_FPS_MAX 1000

/* ---- MD5 files (counts are also checked against the bytes left in the file) ---- */

/* Fuzzing builds use smaller counts so that a valid-looking header cannot make every run
 * allocate hundreds of megabytes. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MC_LIMIT_MESH_JOINTS  4096
#define MC_LIMIT_MESH_MESHES  4096
#define MC_LIMIT_MESH_ITEMS   (1 << 18) /* verts, tris or weights of one mesh */
#define MC_LIMIT_ANIM_JOINTS  4096
#define MC_LIMIT_ANIM_FRAMES  (1 << 16)
#define MC_LIMIT_CAMERA_FRAMES (1 << 16)
#else
#define MC_LIMIT_MESH_JOINTS  (1 << 16)
#define MC_LIMIT_MESH_MESHES  (1 << 16)
#define MC_LIMIT_MESH_ITEMS   (1 << 24)
#define MC_LIMIT_ANIM_JOINTS  (1 << 16)
#define MC_LIMIT_ANIM_FRAMES  (1 << 20)
#define MC_LIMIT_CAMERA_FRAMES (1 << 24)
#endif

/* Frames a scene's camera block may make (its shots' steps + 1 in all): no more than the camera
 * file `md5cine camera` writes of it can hold within MC_LIMIT_FILE_BYTES, so that the block
 * costs what a camera file of the same frames would and the file it becomes is one md5cine
 * reads back. A written frame line is at most 121 bytes ("\t( X Y Z ) ( X Y Z ) FOV\n", seven
 * floats printed with 9 significant digits, each at most 15 characters as in
 * "-1.23456789e-05"); at 128 bytes a frame, which leaves the header and the cuts room,
 * 2^30 / 128 = 2^23 = 8388608 frames, 256 MiB of stored frames (32 bytes each). A fuzzing
 * build keeps its smaller camera limit. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MC_LIMIT_CAMERA_BLOCK_FRAMES MC_LIMIT_CAMERA_FRAMES
#else
#define MC_LIMIT_CAMERA_BLOCK_FRAMES ((int)(MC_LIMIT_FILE_BYTES / 128))
#endif

/* ---- scenes ---- */

#define MC_LIMIT_SCENE_ACTORS    4096
#define MC_LIMIT_SCENE_MATERIALS 1024     /* per actor */
#define MC_LIMIT_SCENE_LIGHTS    8        /* point lights (the renderer's MC_RENDER_MAX_LIGHTS) */
#define MC_LIMIT_SCENE_FRAMES    10000000 /* the "frames" setting: 115 days at 1 fps */
/* Submeshes drawn in a frame, all actors together (an actor draws each of its mesh's): each
 * holds its vertex buffers and shadow volumes in the GL context, about 14 KiB with the default
 * rig's two lights (8192 of one triangle, 64 x 64 pixels: 221 MiB at the peak, 256 MiB with 8
 * lights). 10 actors of a mesh of 20,000 submeshes peaked at 1.5 GB for one frame; a Doom 3
 * model has a few dozen. */
#define MC_LIMIT_SCENE_DRAWS     8192
/* Errors one scene file reports before its parser stops (mc_parse_opts.error): as a compiler's
 * -fmax-errors, enough for the mistakes of an edit, few enough that a file of another format
 * read as a scene is not a screenful per line. */
#define MC_LIMIT_SCENE_ERRORS    20

/* ---- materials (.mtr files, the .pk4 archives and loose files of a base folder) ---- */

/* Declarations in one .mtr file (Doom 3's largest holds about two thousand), stages in one
 * material (Doom allows 256), nesting of image programs (Doom's deepest is 3). */
#define MC_LIMIT_MTR_DECLS      65536
#define MC_LIMIT_MTR_STAGES     256
#define MC_LIMIT_MTR_PROG_DEPTH 32

/* A base folder's material files in all: bytes of text (held, since a declaration is parsed
 * when a scene uses it) and declarations indexed. Unused declarations cost only their index
 * entry (about 48 bytes and the name). 64 MiB, so that text and the tables one file's
 * declarations name (below) stay within about 300 MB of memory with the rest of a scene: a
 * 268 KB archive of 249 MB of tables, read whole under 256 MiB, peaked at 413 MB. */
#define MC_LIMIT_MTR_TEXT_BYTES ((size_t)64 << 20)
#define MC_LIMIT_MTR_INDEX      (1 << 20)

/* Declaration files of a base folder in all (materials/NAME.mtr, skins/NAME.skin, def/NAME.def
 * and the other folders Doom's declaration manager reads; Doom 3's own base holds under two
 * thousand): each costs its text and a few hundred bytes of index while the scene loads, so
 * this bounds that at a few tens of MiB beside the text's own budget. */
#define MC_LIMIT_DECL_FILES 65536

/* Values the tables of one declaration file may hold in all (16 Mi: 64 MiB of floats, 256
 * tables of Doom's largest 65536-value size; Doom's own tables hold a few hundred values in
 * all). They are read, every table of the file, when a declaration first names one, and kept
 * beside the file's text; the table that would take them past this is an error at its name
 * (exit 2), not a default material, so a file's tables cost at most this. */
#define MC_LIMIT_MTR_TABLE_VALUES ((size_t)1 << 24)

/* Mappings in one skin declaration (Doom's have a few dozen). */
#define MC_LIMIT_SKIN_MAPPINGS 65536

/* Frame commands of one anim of a model declaration, its unknown flags included (Doom 3's anims
 * have a few dozen), and the tokens an unknown command (or flag) takes from the rest of its line
 * (framecmd.h). */
#define MC_LIMIT_ANIM_FRAME_COMMANDS 65536
#define MC_LIMIT_FRAME_COMMAND_ARGS  64

/* Model declarations (the .def files of def/, modeldef.h): the anim and remove lines of one
 * declaration, and the anims of one model with those it inherits (Doom 3's characters have a few hundred); how
 * deep `inherit` may nest (Doom 3's, a few levels); the distinct model declarations the base's
 * def files may hold (Doom 3's, under two thousand); and the anims of all of a scene's models
 * together (a model's anims are resolved once per scene and shared by its actors: this bounds
 * the memory and work of a scene of many models). Each is an error at the token that takes it
 * past (the anim, the inherit, the declaration's name in its .def; the scene's model line). */
#define MC_LIMIT_MODELDEF_ANIMS    4096
#define MC_LIMIT_MODELDEF_INHERIT  16
#define MC_LIMIT_MODELDEF_DECLS    65536
#define MC_LIMIT_SCENE_MODEL_ANIMS (1 << 18)

/* Key/value pairs of one entity declaration, the inherited ones included (Doom 3's player holds
 * hundreds), and how deep `inherit` may nest (a few levels in the game's defs); an entityDef
 * past it is an error at its inherit (entitydef.h). */
#define MC_LIMIT_ENTITYDEF_PAIRS   65536
#define MC_LIMIT_ENTITYDEF_INHERIT 32

/* Pixels one material may read through its image programs, all maps and stages together (a
 * 16384 x 16384 image, 1 GiB of RGBA; the imp's four maps are 4M): bounds the memory a small
 * file can ask for, whatever its nesting (add(x, add(x, ...)) holds every level at once). */
#define MC_LIMIT_MATERIAL_PIXELS ((uint64_t)MC_LIMIT_IMAGE_SIDE * MC_LIMIT_IMAGE_SIDE)

/* Pixels of images all the materials of one scene may read (16 Mi: 64 MiB of RGBA, four
 * 2048 x 2048 maps or sixteen of 1024 x 1024, one 4096 x 4096), each image's header checked
 * against what is left before it is decoded; settable per load (mc_parse_opts.image_pixels,
 * `--image-pixels N` on the command line). An image costs about 9.3 bytes a pixel at the peak
 * (decoded, and GL's copy with its mipmaps): 16 Mi keeps a scene within about 300 MB; one
 * 8192 x 8192 image, legal under the 64 Mi this once was, peaked at 973 MB. */
#define MC_LIMIT_SCENE_IMAGE_PIXELS ((uint64_t)16 << 20)

/* A material's polygonOffset, either sign (Doom's are 1 or so): the renderer takes this range. */
#define MC_LIMIT_POLYGON_OFFSET 1e6f

/* Longest material or image name (bytes): Doom's MAX_IMAGE_NAME is 256. */
#define MC_LIMIT_NAME_LEN 256

/* Entries one archive may hold, and the largest entry read from one (uncompressed bytes, as
 * the archive declares and as inflating it yields): Doom 3's pak000.pk4 holds ~13000 entries
 * and none over 20 MiB; a 16384x16384 RGBA TGA is 1 GiB + its header, so 1 GiB + 1 MiB. A
 * larger declared size is refused before anything is allocated; an entry that inflates past
 * its declared size (a zip bomb) is an error when the data goes over it. */
#define MC_LIMIT_ARCHIVE_ENTRIES     (1 << 20)
#define MC_LIMIT_ARCHIVE_ENTRY_BYTES (((size_t)1 << 30) + ((size_t)1 << 20))

/* ---- sound (audio.h, mixer.h) ---- */

/* Bytes of decoded audio all the sound files of one scene may hold: the clips are 44100 Hz
 * float samples (4 bytes each), 176,400 bytes a second of mono, 352,800 of stereo, so 1 GiB is
 * 50 minutes of stereo sound held at once, far above a cut scene's dialogue, effects and music.
 * Each file's declared length is checked against what is left before it is decoded (a small
 * Ogg file whose last page declares hours of samples costs nothing). */
#define MC_LIMIT_AUDIO_DECODED_BYTES ((size_t)1 << 30)

/* The most memory stb_vorbis may hold to decode one Ogg Vorbis stream (its setup: codebooks,
 * floors, residues, MDCT tables, and the setup's temporaries; sound/ogg.c counts every
 * allocation). Streams libvorbis writes (oggenc, FFmpeg) need 92 to 220 KiB (measured: the
 * least that decodes them, from -q -1 to -q 10, mono and stereo, 11025 to 44100 Hz); the
 * format lets a stream's setup ask for more, which is refused ("needs more than N KiB of
 * decoder memory"). */
#define MC_LIMIT_OGG_DECODER_BYTES ((size_t)1 << 20)

/* ---- reference frames, frame pipeline ---- */

/* Frames in a reference folder or video: as many as a scene's "frames" may ask for. */
#define MC_LIMIT_REFERENCE_FRAMES 10000000L

/* Seconds of a video's sound read back (audio_in.h): half an hour, far past a cut scene, is
 * 606 MiB of float stereo at 44.1 kHz (1.3 GiB at the largest rate read, 96 kHz). */
#define MC_LIMIT_AUDIO_SECONDS 1800

/* Chunks one plan may hold (plan.h). */
#define MC_LIMIT_PLAN_CHUNKS 1000000

/* Frame buffers in flight and sink threads of the pipeline. */
#define MC_LIMIT_PIPELINE_DEPTH   64
#define MC_LIMIT_PIPELINE_THREADS 16

/* Frames rendered at once in one process (frame_jobs.h), each by its own GL context with its
 * own framebuffers and textures: 16 is past where more contexts help on any machine md5cine
 * renders on (each job's vertex work already has a core to itself at 16 cores with llvmpipe's
 * raster threads beside it), and it bounds what an explicit --jobs can cost. */
#define MC_LIMIT_FRAME_JOBS 16

#endif
