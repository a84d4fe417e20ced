/* The OpenGL entry points the renderer (src/gpu/) uses, as one X-macro list: X(Name, NAME) stands
 * for glName, whose pointer type is glcorearb.h's PFNGLNAMEPROC. render.c fills an mc_gl_fns from
 * the backend's get_proc (backend.h) and calls GL only through it, so no gl* symbol is linked. A
 * function the renderer starts to use goes here first (it does not compile otherwise). */
#ifndef MC_GPU_GL_FNS_H
#define MC_GPU_GL_FNS_H

#include <GL/glcorearb.h>

/* clang-format off */
#define MC_GL_FUNCTIONS(X) \
    X(ActiveTexture, ACTIVETEXTURE) \
    X(AttachShader, ATTACHSHADER) \
    X(BindBuffer, BINDBUFFER) \
    X(BindFramebuffer, BINDFRAMEBUFFER) \
    X(BindRenderbuffer, BINDRENDERBUFFER) \
    X(BindSampler, BINDSAMPLER) \
    X(BindTexture, BINDTEXTURE) \
    X(BindVertexArray, BINDVERTEXARRAY) \
    X(BlendFuncSeparate, BLENDFUNCSEPARATE) \
    X(BlitFramebuffer, BLITFRAMEBUFFER) \
    X(BufferData, BUFFERDATA) \
    X(BufferSubData, BUFFERSUBDATA) \
    X(CheckFramebufferStatus, CHECKFRAMEBUFFERSTATUS) \
    X(Clear, CLEAR) \
    X(ColorMask, COLORMASK) \
    X(ClearColor, CLEARCOLOR) \
    X(ClearDepth, CLEARDEPTH) \
    X(CompileShader, COMPILESHADER) \
    X(CreateProgram, CREATEPROGRAM) \
    X(CreateShader, CREATESHADER) \
    X(CullFace, CULLFACE) \
    X(DeleteBuffers, DELETEBUFFERS) \
    X(DeleteFramebuffers, DELETEFRAMEBUFFERS) \
    X(DeleteProgram, DELETEPROGRAM) \
    X(DeleteRenderbuffers, DELETERENDERBUFFERS) \
    X(DeleteSamplers, DELETESAMPLERS) \
    X(DeleteShader, DELETESHADER) \
    X(DeleteTextures, DELETETEXTURES) \
    X(DeleteVertexArrays, DELETEVERTEXARRAYS) \
    X(DepthFunc, DEPTHFUNC) \
    X(DepthMask, DEPTHMASK) \
    X(Disable, DISABLE) \
    X(DisableVertexAttribArray, DISABLEVERTEXATTRIBARRAY) \
    X(DrawBuffer, DRAWBUFFER) \
    X(DrawElements, DRAWELEMENTS) \
    X(Enable, ENABLE) \
    X(EnableVertexAttribArray, ENABLEVERTEXATTRIBARRAY) \
    X(Finish, FINISH) \
    X(FramebufferRenderbuffer, FRAMEBUFFERRENDERBUFFER) \
    X(FramebufferTexture2D, FRAMEBUFFERTEXTURE2D) \
    X(FrontFace, FRONTFACE) \
    X(GenBuffers, GENBUFFERS) \
    X(GenFramebuffers, GENFRAMEBUFFERS) \
    X(GenRenderbuffers, GENRENDERBUFFERS) \
    X(GenSamplers, GENSAMPLERS) \
    X(GenTextures, GENTEXTURES) \
    X(GenVertexArrays, GENVERTEXARRAYS) \
    X(GenerateMipmap, GENERATEMIPMAP) \
    X(GetError, GETERROR) \
    X(GetIntegerv, GETINTEGERV) \
    X(GetProgramiv, GETPROGRAMIV) \
    X(GetRenderbufferParameteriv, GETRENDERBUFFERPARAMETERIV) \
    X(GetShaderInfoLog, GETSHADERINFOLOG) \
    X(GetShaderiv, GETSHADERIV) \
    X(GetString, GETSTRING) \
    X(GetUniformLocation, GETUNIFORMLOCATION) \
    X(LinkProgram, LINKPROGRAM) \
    X(PixelStorei, PIXELSTOREI) \
    X(PolygonOffset, POLYGONOFFSET) \
    X(ReadBuffer, READBUFFER) \
    X(ReadPixels, READPIXELS) \
    X(SamplerParameteri, SAMPLERPARAMETERI) \
    X(RenderbufferStorageMultisample, RENDERBUFFERSTORAGEMULTISAMPLE) \
    X(Scissor, SCISSOR) \
    X(ShaderSource, SHADERSOURCE) \
    X(StencilFunc, STENCILFUNC) \
    X(StencilMask, STENCILMASK) \
    X(StencilOpSeparate, STENCILOPSEPARATE) \
    X(ClearStencil, CLEARSTENCIL) \
    X(TexImage2D, TEXIMAGE2D) \
    X(TexStorage2D, TEXSTORAGE2D) \
    X(TexSubImage2D, TEXSUBIMAGE2D) \
    X(TexParameteri, TEXPARAMETERI) \
    X(Uniform1f, UNIFORM1F) \
    X(Uniform1fv, UNIFORM1FV) \
    X(Uniform1i, UNIFORM1I) \
    X(Uniform1iv, UNIFORM1IV) \
    X(Uniform2f, UNIFORM2F) \
    X(Uniform3f, UNIFORM3F) \
    X(Uniform3fv, UNIFORM3FV) \
    X(Uniform4fv, UNIFORM4FV) \
    X(Uniform4f, UNIFORM4F) \
    X(UniformMatrix3fv, UNIFORMMATRIX3FV) \
    X(UniformMatrix4fv, UNIFORMMATRIX4FV) \
    X(UseProgram, USEPROGRAM) \
    X(VertexAttrib2f, VERTEXATTRIB2F) \
    X(VertexAttrib4f, VERTEXATTRIB4F) \
    X(VertexAttribPointer, VERTEXATTRIBPOINTER) \
    X(Viewport, VIEWPORT)
/* clang-format on */

typedef struct mc_gl_fns {
#define MC_GL_FIELD(name, NAME) PFNGL##NAME##PROC name;
    MC_GL_FUNCTIONS(MC_GL_FIELD)
#undef MC_GL_FIELD
} mc_gl_fns;

#endif
