/* tress-bfres-model.c: reading the models of a Wii U BFRES
 *
 * Layouts (version ≥ 3.4, big-endian; offsets are self-relative s32):
 *   FMDL 0x30: magic, name, path, FSKL, FVTX[], FSHP group, FMAT group,
 *              user data group, u16 nVB, nShape, nMat, nUser, u32 totalVertices,
 *              user pointer.
 *   FSKL 0x24: magic, u32 flags, u16 nBone, nSmooth, nRigid, pad, bone group,
 *              Bone[], u16 matrixToBone[], 3×4 inverse model matrices[], user ptr.
 *   Bone 0x40: name, u16 index, s16 parent, smooth, rigid, billboard, u16 nUser,
 *              u32 flags, f32 scale[3], rotation[4], translation[3], user data.
 *   FVTX 0x20: magic, u8 nAttrib, u8 nBuffer, u16 index, u32 nVertex,
 *              u8 skinCount, pad 3, attrib[], attrib group, buffer[], user ptr.
 *   Attrib 0x0C: name, u8 buffer, pad, u16 offset, u32 GX2 format.
 *   Buffer 0x18: u32 data pointer, u32 size, u32 handle, u16 stride,
 *              u16 nBuffering, u32 context pointer, data.
 *   FSHP: magic, name, u32 flags, u16 index, material, bone, vertex buffer,
 *              nSkinBone, u8 skinCount, nMesh, nKeyShape, nTargetAttrib,
 *              u16 nBoundingNode, radius (f32 before 4.5, then an offset to
 *              nMesh f32), FVTX, Mesh[], u16 skinBones[], key shape group, …
 *   Mesh 0x1C: u32 GX2 primitive, u32 GX2 index format, u32 nIndex, u16 nSub,
 *              pad, SubMesh[], index Buffer, u32 firstVertex.
 *   SubMesh 8: u32 byte offset into the index buffer, u32 count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-bfres-model.h"

#include <math.h>
#include <string.h>

#include "tress-bfres-read-private.h"

#define FRES_HEADER_SIZE 0x6C
#define FMDL_SIZE 0x30
#define FSKL_SIZE 0x24
#define BONE_SIZE 0x40
#define FVTX_SIZE 0x20
#define ATTRIB_SIZE 0x0C
#define BUFFER_SIZE 0x18
#define FSHP_SIZE 0x38
#define MESH_SIZE 0x1C
#define SUBMESH_SIZE 8
#define V3_4 0x03040000u

/* ---- GX2 attribute formats ------------------------------------------------ */

typedef enum
{
  K_UNORM,
  K_UINT,
  K_SNORM,
  K_SINT,
  K_FLOAT,
  K_UINT_F, /* integers converted to float by the GPU: the same values */
  K_SINT_F,
  K_PACKED_1010102,
  K_PACKED_44,
} Kind;

typedef struct
{
  guint32 format;
  const char *name;
  guint8 n, bits;
  Kind kind;
} Gx2Format;

static const Gx2Format gx2_formats[] = {
  { 0x000, "8_UNorm", 1, 8, K_UNORM },
  { 0x100, "8_UInt", 1, 8, K_UINT },
  { 0x200, "8_SNorm", 1, 8, K_SNORM },
  { 0x300, "8_SInt", 1, 8, K_SINT },
  { 0x800, "8_UIntToSingle", 1, 8, K_UINT_F },
  { 0xA00, "8_SIntToSingle", 1, 8, K_SINT_F },
  { 0x001, "4_4_UNorm", 2, 4, K_PACKED_44 },
  { 0x002, "16_UNorm", 1, 16, K_UNORM },
  { 0x102, "16_UInt", 1, 16, K_UINT },
  { 0x202, "16_SNorm", 1, 16, K_SNORM },
  { 0x302, "16_SInt", 1, 16, K_SINT },
  { 0x803, "16_Single", 1, 16, K_FLOAT },
  { 0x802, "16_UIntToSingle", 1, 16, K_UINT_F },
  { 0xA02, "16_SIntToSingle", 1, 16, K_SINT_F },
  { 0x004, "8_8_UNorm", 2, 8, K_UNORM },
  { 0x104, "8_8_UInt", 2, 8, K_UINT },
  { 0x204, "8_8_SNorm", 2, 8, K_SNORM },
  { 0x304, "8_8_SInt", 2, 8, K_SINT },
  { 0x804, "8_8_UIntToSingle", 2, 8, K_UINT_F },
  { 0xA04, "8_8_SIntToSingle", 2, 8, K_SINT_F },
  { 0x105, "32_UInt", 1, 32, K_UINT },
  { 0x305, "32_SInt", 1, 32, K_SINT },
  { 0x806, "32_Single", 1, 32, K_FLOAT },
  { 0x007, "16_16_UNorm", 2, 16, K_UNORM },
  { 0x107, "16_16_UInt", 2, 16, K_UINT },
  { 0x207, "16_16_SNorm", 2, 16, K_SNORM },
  { 0x307, "16_16_SInt", 2, 16, K_SINT },
  { 0x808, "16_16_Single", 2, 16, K_FLOAT },
  { 0x807, "16_16_UIntToSingle", 2, 16, K_UINT_F },
  { 0xA07, "16_16_SIntToSingle", 2, 16, K_SINT_F },
  { 0x00A, "8_8_8_8_UNorm", 4, 8, K_UNORM },
  { 0x10A, "8_8_8_8_UInt", 4, 8, K_UINT },
  { 0x20A, "8_8_8_8_SNorm", 4, 8, K_SNORM },
  { 0x30A, "8_8_8_8_SInt", 4, 8, K_SINT },
  { 0x80A, "8_8_8_8_UIntToSingle", 4, 8, K_UINT_F },
  { 0xA0A, "8_8_8_8_SIntToSingle", 4, 8, K_SINT_F },
  { 0x00B, "10_10_10_2_UNorm", 4, 10, K_PACKED_1010102 },
  { 0x10B, "10_10_10_2_UInt", 4, 10, K_PACKED_1010102 },
  { 0x20B, "10_10_10_2_SNorm", 4, 10, K_PACKED_1010102 },
  { 0x30B, "10_10_10_2_SInt", 4, 10, K_PACKED_1010102 },
  { 0x10C, "32_32_UInt", 2, 32, K_UINT },
  { 0x30C, "32_32_SInt", 2, 32, K_SINT },
  { 0x80D, "32_32_Single", 2, 32, K_FLOAT },
  { 0x00E, "16_16_16_16_UNorm", 4, 16, K_UNORM },
  { 0x10E, "16_16_16_16_UInt", 4, 16, K_UINT },
  { 0x20E, "16_16_16_16_SNorm", 4, 16, K_SNORM },
  { 0x30E, "16_16_16_16_SInt", 4, 16, K_SINT },
  { 0x80F, "16_16_16_16_Single", 4, 16, K_FLOAT },
  { 0x80E, "16_16_16_16_UIntToSingle", 4, 16, K_UINT_F },
  { 0xA0E, "16_16_16_16_SIntToSingle", 4, 16, K_SINT_F },
  { 0x110, "32_32_32_UInt", 3, 32, K_UINT },
  { 0x310, "32_32_32_SInt", 3, 32, K_SINT },
  { 0x811, "32_32_32_Single", 3, 32, K_FLOAT },
  { 0x112, "32_32_32_32_UInt", 4, 32, K_UINT },
  { 0x312, "32_32_32_32_SInt", 4, 32, K_SINT },
  { 0x813, "32_32_32_32_Single", 4, 32, K_FLOAT },
};

static const Gx2Format *
gx2_lookup (guint32 format)
{
  for (guint i = 0; i < G_N_ELEMENTS (gx2_formats); i++)
    if (gx2_formats[i].format == format)
      return &gx2_formats[i];
  return NULL;
}

guint
tress_gx2_attrib_size (guint32 format)
{
  const Gx2Format *f = gx2_lookup (format);

  if (f == NULL)
    return 0;
  if (f->kind == K_PACKED_1010102)
    return 4;
  if (f->kind == K_PACKED_44)
    return 1;
  return f->n * f->bits / 8;
}

const char *
tress_gx2_attrib_format_name (guint32 format)
{
  const Gx2Format *f = gx2_lookup (format);

  return f != NULL ? f->name : "unknown";
}

static float
half_to_float (guint16 h)
{
  guint sign = h >> 15, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  float v;

  if (exp == 0)
    v = ldexpf ((float)mant, -24);
  else if (exp == 31)
    v = mant != 0 ? NAN : INFINITY;
  else
    v = ldexpf ((float)(mant | 0x400), (int)exp - 25);
  return sign ? -v : v;
}

guint
tress_gx2_decode (guint32 format, const guint8 *p, float out[4])
{
  const Gx2Format *f = gx2_lookup (format);
  guint i;

  out[0] = out[1] = out[2] = out[3] = 0;
  if (f == NULL)
    return 0;
  if (f->kind == K_PACKED_1010102)
    {
      guint32 v = tress_get_u32 (p, TRESS_BIG_ENDIAN);
      guint32 x = v & 0x3FF, y = (v >> 10) & 0x3FF, z = (v >> 20) & 0x3FF, w = v >> 30;

      switch (format & 0xF00)
        {
        case 0x000:
          out[0] = x / 1023.f, out[1] = y / 1023.f, out[2] = z / 1023.f, out[3] = w / 3.f;
          break;
        case 0x100:
          out[0] = (float)x, out[1] = (float)y, out[2] = (float)z, out[3] = (float)w;
          break;
        default:
          {
            /* Signed 10-bit components (two's complement); w stays unsigned. */
            int sx = (int)(x ^ 0x200) - 0x200, sy = (int)(y ^ 0x200) - 0x200,
                sz = (int)(z ^ 0x200) - 0x200;

            if ((format & 0xF00) == 0x200)
              {
                out[0] = MAX (sx / 511.f, -1.f);
                out[1] = MAX (sy / 511.f, -1.f);
                out[2] = MAX (sz / 511.f, -1.f);
                out[3] = w / 3.f;
              }
            else
              out[0] = (float)sx, out[1] = (float)sy, out[2] = (float)sz, out[3] = (float)w;
          }
        }
      return 4;
    }
  if (f->kind == K_PACKED_44)
    {
      out[0] = (p[0] & 0xF) / 15.f;
      out[1] = (p[0] >> 4) / 15.f;
      return 2;
    }
  for (i = 0; i < f->n; i++)
    {
      guint32 u;
      gint32 s;

      switch (f->bits)
        {
        case 8:
          u = p[i];
          s = (gint8)p[i];
          break;
        case 16:
          u = tress_get_u16 (p + 2 * i, TRESS_BIG_ENDIAN);
          s = (gint16)u;
          break;
        default:
          u = tress_get_u32 (p + 4 * i, TRESS_BIG_ENDIAN);
          s = (gint32)u;
          break;
        }
      switch (f->kind)
        {
        case K_UNORM:
          out[i] = (float)(u / (double)((1ull << f->bits) - 1));
          break;
        case K_SNORM:
          out[i] = (float)MAX (s / (double)((1ull << (f->bits - 1)) - 1), -1.0);
          break;
        case K_UINT:
        case K_UINT_F:
          out[i] = (float)u;
          break;
        case K_SINT:
        case K_SINT_F:
          out[i] = (float)s;
          break;
        case K_FLOAT:
          if (f->bits == 16)
            out[i] = half_to_float ((guint16)u);
          else
            memcpy (&out[i], &u, 4);
          break;
        default:
          break;
        }
    }
  return f->n;
}

/* ---- skeleton ------------------------------------------------------------- */

static gboolean
read_skeleton (BrCtx *ctx, gsize pos, TressBfresSkeleton *sk, GError **error)
{
  gsize group, bones, m2b, inv;
  g_auto (GStrv) names = NULL;
  guint n_matrices;

  sk->pos = pos;
  if (!br_seen (ctx, pos, "FSKL", error) || !br_magic (ctx, pos, "FSKL", "FSKL magic", error)
      || !br_need (ctx, pos, FSKL_SIZE, "FSKL header", error))
    return FALSE;
  sk->flags = br_u32 (ctx, pos + 4);
  sk->scaling = (sk->flags >> 8) & 3;
  sk->rotation_mode = (sk->flags >> 12) & 7;
  if (sk->rotation_mode > TRESS_BFRES_ROTATION_EULER_XYZ)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 4,
                    "FSKL rotation mode (flags bits 12-14)", "0 (quaternion) or 1 (Euler XYZ)",
                    "%u", sk->rotation_mode);
  sk->n_bones = br_u16 (ctx, pos + 8);
  sk->n_smooth = br_u16 (ctx, pos + 0x0A);
  sk->n_rigid = br_u16 (ctx, pos + 0x0C);
  n_matrices = sk->n_smooth + sk->n_rigid;
  if (sk->n_bones == 0)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, pos + 8, "FSKL bone count", "at least 1",
                    "0");
  if (!br_offset (ctx, pos + 0x10, "FSKL bone index group", &group, error)
      || !br_target (ctx, pos + 0x14, "FSKL bone array", (gsize)sk->n_bones * BONE_SIZE, &bones,
                     error))
    return FALSE;
  if (group != 0
      && !br_group (ctx, group, "FSKL bone index group", sk->n_bones, &names, NULL, error))
    return FALSE;
  if (!br_seen (ctx, bones, "FSKL bone array", error))
    return FALSE;
  sk->bones = g_new0 (TressBfresBone, sk->n_bones);
  for (guint i = 0; i < sk->n_bones; i++)
    {
      TressBfresBone *b = &sk->bones[i];
      gsize bp = bones + (gsize)i * BONE_SIZE;

      b->pos = bp;
      if (!br_string (ctx, bp, "bone name", &b->name, error))
        return FALSE;
      b->index = br_u16 (ctx, bp + 4);
      b->parent = (gint16)br_u16 (ctx, bp + 6);
      b->smooth_matrix = (gint16)br_u16 (ctx, bp + 8);
      b->rigid_matrix = (gint16)br_u16 (ctx, bp + 0x0A);
      b->billboard = (gint16)br_u16 (ctx, bp + 0x0C);
      b->flags = br_u32 (ctx, bp + 0x10);
      b->rotation_mode = (b->flags >> 12) & 7;
      for (guint k = 0; k < 3; k++)
        {
          b->scale[k] = br_f32 (ctx, bp + 0x14 + 4 * k);
          b->translation[k] = br_f32 (ctx, bp + 0x30 + 4 * k);
        }
      for (guint k = 0; k < 4; k++)
        b->rotation[k] = br_f32 (ctx, bp + 0x20 + 4 * k);
      if (b->index != i)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp + 4, "bone index",
                        "its place in the bone array", "%u (bone %u, \"%s\")", b->index, i,
                        b->name);
      if (b->parent < -1 || b->parent >= (gint)sk->n_bones || b->parent == (gint)i)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp + 6, "bone parent",
                        "−1 or another bone of the skeleton", "%d (bone \"%s\", %u bones)",
                        b->parent, b->name, sk->n_bones);
      if (b->smooth_matrix < -1 || b->smooth_matrix >= (gint)sk->n_smooth)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp + 8, "bone smooth matrix index",
                        "−1 or a smooth matrix", "%d (bone \"%s\", %u smooth matrices)",
                        b->smooth_matrix, b->name, sk->n_smooth);
      if (b->rigid_matrix < -1 || b->rigid_matrix >= (gint)n_matrices)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp + 0x0A, "bone rigid matrix index",
                        "−1 or a matrix of the skeleton", "%d (bone \"%s\", %u matrices)",
                        b->rigid_matrix, b->name, n_matrices);
      if (b->rotation_mode > TRESS_BFRES_ROTATION_EULER_XYZ)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp + 0x10,
                        "bone rotation mode (flags bits 12-14)", "0 (quaternion) or 1 (Euler XYZ)",
                        "%u (bone \"%s\")", b->rotation_mode, b->name);
      for (guint k = 0; k < 10; k++)
        {
          float v = k < 3 ? b->scale[k] : k < 7 ? b->rotation[k - 3] : b->translation[k - 7];

          if (!isfinite (v))
            return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp + 0x14 + 4 * k, "bone transform",
                            "a finite number", "%g (bone \"%s\")", v, b->name);
        }
      if (names != NULL && g_strcmp0 (names[i], b->name) != 0)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, bp, "bone name",
                        "the name its index group entry gives", "\"%s\" (the group says \"%s\")",
                        b->name, names[i]);
    }
  /* Parents form a forest: walking up from any bone ends at a root. */
  for (guint i = 0; i < sk->n_bones; i++)
    {
      gint p = sk->bones[i].parent;
      guint steps = 0;

      while (p >= 0 && steps <= sk->n_bones)
        {
          p = sk->bones[p].parent;
          steps++;
        }
      if (p >= 0)
        return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, sk->bones[i].pos + 6, "bone parent",
                        "a chain of parents ending at a root", "a loop through bone \"%s\"",
                        sk->bones[i].name);
    }
  if (!br_offset (ctx, pos + 0x18, "FSKL matrix-to-bone table", &m2b, error)
      || !br_offset (ctx, pos + 0x1C, "FSKL inverse model matrices", &inv, error))
    return FALSE;
  sk->matrix_to_bone = g_new0 (guint16, n_matrices + 1);
  if (n_matrices > 0)
    {
      if (!br_target (ctx, pos + 0x18, "FSKL matrix-to-bone table", 2 * (gsize)n_matrices, &m2b,
                      error))
        return FALSE;
      for (guint i = 0; i < n_matrices; i++)
        {
          sk->matrix_to_bone[i] = br_u16 (ctx, m2b + 2 * i);
          if (sk->matrix_to_bone[i] >= sk->n_bones)
            return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, m2b + 2 * i, "matrix-to-bone entry",
                            "a bone of the skeleton", "%u (matrix %u, %u bones)",
                            sk->matrix_to_bone[i], i, sk->n_bones);
        }
    }
  sk->inverse_model = g_new0 (float, 12 * (gsize)sk->n_smooth + 1);
  if (sk->n_smooth > 0)
    {
      if (!br_target (ctx, pos + 0x1C, "FSKL inverse model matrices", 48 * (gsize)sk->n_smooth,
                      &inv, error))
        return FALSE;
      sk->inverse_pos = inv;
      for (guint i = 0; i < 12 * sk->n_smooth; i++)
        {
          sk->inverse_model[i] = br_f32 (ctx, inv + 4 * i);
          if (!isfinite (sk->inverse_model[i]))
            return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, inv + 4 * i, "inverse model matrix",
                            "finite numbers", "%g (matrix %u)", sk->inverse_model[i], i / 12);
        }
    }
  return TRUE;
}

/* ---- vertex buffers ------------------------------------------------------- */

static const TressBfresAttrib *
find_attrib (const TressBfresVertexBuffer *vb, const char *name)
{
  for (guint i = 0; i < vb->n_attribs; i++)
    if (strcmp (vb->attribs[i].name, name) == 0)
      return &vb->attribs[i];
  return NULL;
}

/* Checks that attribute @a can be read for every vertex; *comps gets its
 * component count. */
static gboolean
check_attrib (BrCtx *ctx, const TressBfresVertexBuffer *vb, const TressBfresAttrib *a, guint *comps,
              GError **error)
{
  const TressBfresBuffer *buf;
  const Gx2Format *f = gx2_lookup (a->format);
  guint size = tress_gx2_attrib_size (a->format);
  guint64 end;

  *comps = 0;
  if (f == NULL || size == 0 || a->format == 0x809)
    return br_fail (ctx, error, TRESS_ERROR_UNSUPPORTED, a->pos + 8, "vertex attribute format",
                    "a GX2 attribute format this reader decodes", "0x%X (attribute \"%s\")",
                    a->format, a->name);
  if (a->buffer >= vb->n_buffers)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, a->pos + 4, "vertex attribute buffer",
                    "a buffer of the FVTX", "%u (attribute \"%s\", %u buffers)", a->buffer, a->name,
                    vb->n_buffers);
  buf = &vb->buffers[a->buffer];
  if (vb->n_vertices > 0 && (a->offset + size > buf->stride))
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, a->pos + 6, "vertex attribute offset",
                    "an element inside the buffer's stride",
                    "%u + %u bytes of %s (attribute \"%s\", stride %u)", a->offset, size,
                    tress_gx2_attrib_format_name (a->format), a->name, buf->stride);
  end = vb->n_vertices == 0 ? 0 : (guint64)(vb->n_vertices - 1) * buf->stride + a->offset + size;
  if (end > buf->size)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, vb->pos + 8, "FVTX vertex count",
                    "vertices that fit in their buffers",
                    "%u vertices of %u bytes: %" G_GUINT64_FORMAT " bytes, buffer %u holds %u "
                    "(attribute \"%s\")",
                    vb->n_vertices, buf->stride, end, a->buffer, buf->size, a->name);
  *comps = MIN (f->n, 4);
  return TRUE;
}

static gboolean
decode_attrib (BrCtx *ctx, const TressBfresVertexBuffer *vb, const char *name, guint want,
               float **out, guint *n_comps, GError **error)
{
  const TressBfresAttrib *a = find_attrib (vb, name);
  const TressBfresBuffer *buf;
  guint comps = 0;
  float v[4];
  float *dst;

  *out = NULL;
  if (n_comps != NULL)
    *n_comps = 0;
  if (a == NULL)
    return TRUE;
  if (!check_attrib (ctx, vb, a, &comps, error))
    return FALSE;
  buf = &vb->buffers[a->buffer];
  dst = br_alloc (ctx, (gsize)vb->n_vertices * want, sizeof (float), a->pos, name, error);
  if (dst == NULL)
    return FALSE;
  for (guint i = 0; i < vb->n_vertices; i++)
    {
      tress_gx2_decode (a->format, ctx->d + buf->data_pos + (gsize)i * buf->stride + a->offset, v);
      memcpy (dst + (gsize)i * want, v, want * sizeof (float));
    }
  *out = dst;
  if (n_comps != NULL)
    *n_comps = comps;
  return TRUE;
}

static gboolean
read_buffer (BrCtx *ctx, gsize bp, const char *field, TressBfresBuffer *buf, GError **error)
{
  buf->pos = bp;
  if (!br_need (ctx, bp, BUFFER_SIZE, field, error))
    return FALSE;
  buf->size = br_u32 (ctx, bp + 4);
  buf->stride = br_u16 (ctx, bp + 0x0C);
  buf->n_buffering = br_u16 (ctx, bp + 0x0E);
  if (buf->n_buffering == 0)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, bp + 0x0E, field, "at least one buffering",
                    "0");
  if (!br_target (ctx, bp + 0x14, field, buf->size, &buf->data_pos, error))
    return FALSE;
  return TRUE;
}

static gboolean
read_vertex_buffer (BrCtx *ctx, gsize pos, guint index, TressBfresVertexBuffer *vb, GError **error)
{
  gsize attribs, buffers;
  float *indices = NULL, *weights = NULL;
  guint n_idx = 0, n_w = 0;
  gboolean ok;

  vb->pos = pos;
  if (!br_magic (ctx, pos, "FVTX", "FVTX magic", error)
      || !br_need (ctx, pos, FVTX_SIZE, "FVTX header", error))
    return FALSE;
  vb->n_attribs = br_u8 (ctx, pos + 4);
  vb->n_buffers = br_u8 (ctx, pos + 5);
  vb->n_vertices = br_u32 (ctx, pos + 8);
  vb->skin_count = br_u8 (ctx, pos + 0x0C);
  if (br_u16 (ctx, pos + 6) != index)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 6, "FVTX index",
                    "its place in the model's vertex buffer array", "%u (vertex buffer %u)",
                    br_u16 (ctx, pos + 6), index);
  if (vb->skin_count > 4)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x0C, "FVTX skinning count",
                    "0 to 4 influences", "%u", vb->skin_count);
  if (vb->n_attribs > 0
      && !br_target (ctx, pos + 0x10, "FVTX attribute array", (gsize)vb->n_attribs * ATTRIB_SIZE,
                     &attribs, error))
    return FALSE;
  if (vb->n_buffers > 0
      && !br_target (ctx, pos + 0x18, "FVTX buffer array", (gsize)vb->n_buffers * BUFFER_SIZE,
                     &buffers, error))
    return FALSE;
  vb->attribs = g_new0 (TressBfresAttrib, vb->n_attribs + 1);
  vb->buffers = g_new0 (TressBfresBuffer, vb->n_buffers + 1);
  for (guint i = 0; i < vb->n_attribs; i++)
    {
      TressBfresAttrib *a = &vb->attribs[i];
      gsize ap = attribs + (gsize)i * ATTRIB_SIZE;

      a->pos = ap;
      if (!br_string (ctx, ap, "vertex attribute name", &a->name, error))
        return FALSE;
      a->buffer = br_u8 (ctx, ap + 4);
      a->offset = br_u16 (ctx, ap + 6);
      a->format = br_u32 (ctx, ap + 8);
    }
  for (guint i = 0; i < vb->n_buffers; i++)
    if (!read_buffer (ctx, buffers + (gsize)i * BUFFER_SIZE, "vertex buffer", &vb->buffers[i],
                      error))
      return FALSE;
  if (!decode_attrib (ctx, vb, "_p0", 3, &vb->positions, NULL, error)
      || !decode_attrib (ctx, vb, "_n0", 3, &vb->normals, NULL, error))
    return FALSE;
  if (vb->positions == NULL && vb->n_vertices > 0)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x10, "FVTX attributes",
                    "a position attribute \"_p0\"", "%u attributes without it", vb->n_attribs);
  /* Texture coordinates are only carried along (glTF export): a set this
   * reader cannot decode leaves them out rather than the model. */
  if (!decode_attrib (ctx, vb, "_u0", 2, &vb->uvs, NULL, NULL))
    vb->uvs = NULL;
  ok = decode_attrib (ctx, vb, "_i0", 4, &indices, &n_idx, error)
       && decode_attrib (ctx, vb, "_w0", 4, &weights, &n_w, error);
  if (ok && indices != NULL)
    {
      vb->n_skin_components = n_idx;
      vb->skin_indices
          = br_alloc (ctx, (gsize)vb->n_vertices * 4, sizeof (guint16), pos, "_i0", error);
      vb->skin_weights = vb->skin_indices != NULL ? br_alloc (ctx, (gsize)vb->n_vertices * 4,
                                                              sizeof (float), pos, "_w0", error)
                                                  : NULL;
      ok = vb->skin_weights != NULL;
      for (guint i = 0; ok && i < vb->n_vertices; i++)
        for (guint k = 0; k < 4; k++)
          {
            float fi = indices[4 * (gsize)i + k];

            vb->skin_indices[4 * (gsize)i + k] = fi >= 0 && fi < 65536 ? (guint16)fi : 0xFFFF;
            /* Without weights a single index carries the whole vertex. */
            if (weights != NULL)
              vb->skin_weights[4 * (gsize)i + k] = k < n_w ? weights[4 * (gsize)i + k] : 0;
            else
              vb->skin_weights[4 * (gsize)i + k] = k == 0 ? 1 : 0;
          }
    }
  g_free (indices);
  g_free (weights);
  return ok;
}

/* ---- shapes --------------------------------------------------------------- */

static gboolean
read_indices (BrCtx *ctx, TressBfresMesh *m, guint32 n_vertices, GError **error)
{
  gboolean wide
      = m->index_format == TRESS_GX2_INDEX_U32 || m->index_format == TRESS_GX2_INDEX_U32_LE;
  TressByteOrder order
      = m->index_format == TRESS_GX2_INDEX_U16_LE || m->index_format == TRESS_GX2_INDEX_U32_LE
            ? TRESS_LITTLE_ENDIAN
            : TRESS_BIG_ENDIAN;
  gsize isize = wide ? 4 : 2;
  const guint8 *p = ctx->d + m->index_buffer.data_pos;
  g_autofree guint32 *list = NULL;
  guint n_tri = 0;

  if (m->index_format != TRESS_GX2_INDEX_U16 && m->index_format != TRESS_GX2_INDEX_U32
      && m->index_format != TRESS_GX2_INDEX_U16_LE && m->index_format != TRESS_GX2_INDEX_U32_LE)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, m->pos + 4, "mesh index format",
                    "a GX2 index format (0, 1, 4 or 9)", "%u", m->index_format);
  if ((guint64)m->n_indices * isize > m->index_buffer.size)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, m->pos + 8, "mesh index count",
                    "indices that fit in the index buffer",
                    "%u × %" G_GSIZE_FORMAT " bytes, buffer of %u", m->n_indices, isize,
                    m->index_buffer.size);
  for (guint i = 0; i < m->n_submeshes; i++)
    {
      const TressBfresSubMesh *s = &m->submeshes[i];

      if (s->offset % isize != 0 || s->offset > m->index_buffer.size
          || (guint64)s->count * isize > m->index_buffer.size - s->offset)
        return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, m->pos + 0x10, "sub-mesh",
                        "a range of the index buffer",
                        "offset %u, %u indices (sub-mesh %u, buffer of %u bytes)", s->offset,
                        s->count, i, m->index_buffer.size);
    }
  for (guint i = 0; i < m->n_indices; i++)
    {
      guint32 v = wide ? tress_get_u32 (p + 4 * (gsize)i, order)
                       : tress_get_u16 (p + 2 * (gsize)i, order);

      if ((guint64)v + m->first_vertex >= n_vertices)
        return br_fail (
            ctx, error, TRESS_ERROR_BAD_VALUE, m->index_buffer.data_pos + isize * (gsize)i,
            "vertex index", "a vertex of the shape's buffer",
            "%u + first vertex %u (index %u, %u vertices)", v, m->first_vertex, i, n_vertices);
    }
  if (m->primitive != TRESS_GX2_PRIMITIVE_TRIANGLES
      && m->primitive != TRESS_GX2_PRIMITIVE_TRIANGLE_STRIP
      && m->primitive != TRESS_GX2_PRIMITIVE_TRIANGLE_FAN)
    return TRUE; /* kept, not drawn */
  if (m->n_indices >= 3)
    {
      gsize n = m->primitive == TRESS_GX2_PRIMITIVE_TRIANGLES ? m->n_indices / 3 : m->n_indices - 2;

      list = br_alloc (ctx, n * 3, sizeof (guint32), m->pos, "mesh triangles", error);
      if (list == NULL)
        return FALSE;
      for (gsize t = 0; t < n; t++)
        {
          gsize k[3];

          if (m->primitive == TRESS_GX2_PRIMITIVE_TRIANGLES)
            k[0] = 3 * t, k[1] = 3 * t + 1, k[2] = 3 * t + 2;
          else if (m->primitive == TRESS_GX2_PRIMITIVE_TRIANGLE_FAN)
            k[0] = 0, k[1] = t + 1, k[2] = t + 2;
          else if (t % 2 == 0)
            k[0] = t, k[1] = t + 1, k[2] = t + 2;
          else
            k[0] = t + 1, k[1] = t, k[2] = t + 2;
          for (guint c = 0; c < 3; c++)
            list[3 * n_tri + c]
                = (wide ? tress_get_u32 (p + 4 * k[c], order) : tress_get_u16 (p + 2 * k[c], order))
                  + m->first_vertex;
          n_tri++;
        }
    }
  m->triangles = g_steal_pointer (&list);
  m->n_triangles = n_tri;
  return TRUE;
}

static gboolean
read_mesh (BrCtx *ctx, gsize mp, guint32 n_vertices, TressBfresMesh *m, GError **error)
{
  gsize subs, buf;

  m->pos = mp;
  if (!br_need (ctx, mp, MESH_SIZE, "mesh", error))
    return FALSE;
  m->primitive = br_u32 (ctx, mp);
  m->index_format = br_u32 (ctx, mp + 4);
  m->n_indices = br_u32 (ctx, mp + 8);
  m->n_submeshes = br_u16 (ctx, mp + 0x0C);
  m->first_vertex = br_u32 (ctx, mp + 0x18);
  m->submeshes = g_new0 (TressBfresSubMesh, m->n_submeshes + 1);
  if (m->n_submeshes > 0)
    {
      if (!br_target (ctx, mp + 0x10, "sub-mesh array", (gsize)m->n_submeshes * SUBMESH_SIZE, &subs,
                      error))
        return FALSE;
      for (guint i = 0; i < m->n_submeshes; i++)
        {
          m->submeshes[i].offset = br_u32 (ctx, subs + 8 * (gsize)i);
          m->submeshes[i].count = br_u32 (ctx, subs + 8 * (gsize)i + 4);
        }
    }
  if (!br_target (ctx, mp + 0x14, "index buffer", BUFFER_SIZE, &buf, error)
      || !read_buffer (ctx, buf, "index buffer", &m->index_buffer, error))
    return FALSE;
  return read_indices (ctx, m, n_vertices, error);
}

static gboolean
read_shape (BrCtx *ctx, gsize pos, guint index, TressBfresModel *model, TressBfresShape *s,
            GError **error)
{
  gsize fvtx, meshes, skin_bones;
  guint n_meshes;
  const TressBfresVertexBuffer *vb;
  gsize where_len = ctx->where->len;

  s->pos = pos;
  if (!br_seen (ctx, pos, "FSHP", error) || !br_magic (ctx, pos, "FSHP", "FSHP magic", error)
      || !br_need (ctx, pos, FSHP_SIZE, "FSHP header", error)
      || !br_string (ctx, pos + 4, "FSHP name", &s->name, error))
    return FALSE;
  g_string_truncate (ctx->where, where_len >= 2 ? where_len - 2 : where_len);
  g_string_append_printf (ctx->where, ", shape \"%s\": ", s->name);
  s->flags = br_u32 (ctx, pos + 8);
  s->index = br_u16 (ctx, pos + 0x0C);
  s->material = br_u16 (ctx, pos + 0x0E);
  s->bone = br_u16 (ctx, pos + 0x10);
  s->vertex_buffer = br_u16 (ctx, pos + 0x12);
  s->n_skin_bones = br_u16 (ctx, pos + 0x14);
  s->skin_count = br_u8 (ctx, pos + 0x16);
  n_meshes = br_u8 (ctx, pos + 0x17);
  if (s->index != index)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x0C, "FSHP index",
                    "its place in the model's shape group", "%u (shape %u)", s->index, index);
  if (s->material >= model->n_materials)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x0E, "FSHP material index",
                    "a material of the model", "%u (%u materials)", s->material,
                    model->n_materials);
  if (s->bone >= model->skeleton.n_bones)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x10, "FSHP bone index",
                    "a bone of the skeleton", "%u (%u bones)", s->bone, model->skeleton.n_bones);
  if (s->vertex_buffer >= model->n_vertex_buffers)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x12, "FSHP vertex buffer index",
                    "a vertex buffer of the model", "%u (%u vertex buffers)", s->vertex_buffer,
                    model->n_vertex_buffers);
  vb = &model->vertex_buffers[s->vertex_buffer];
  if (s->skin_count > 4)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x16, "FSHP skinning count",
                    "0 to 4 influences", "%u", s->skin_count);
  if (s->skin_count > 0 && vb->skin_indices == NULL)
    return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, pos + 0x16, "FSHP skinning count",
                    "0 for a vertex buffer without skinning indices (\"_i0\")", "%u",
                    s->skin_count);
  if (!br_target (ctx, pos + 0x20, "FSHP vertex buffer", FVTX_SIZE, &fvtx, error))
    return FALSE;
  if (fvtx != vb->pos)
    return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos + 0x20, "FSHP vertex buffer",
                    "the model's vertex buffer of the shape's index",
                    "0x%" G_GSIZE_MODIFIER "x (vertex buffer %u is at 0x%" G_GSIZE_MODIFIER "x)",
                    fvtx, s->vertex_buffer, vb->pos);
  if (n_meshes == 0)
    return br_fail (ctx, error, TRESS_ERROR_BAD_COUNT, pos + 0x17, "FSHP mesh count", "at least 1",
                    "0");
  if (!br_target (ctx, pos + 0x24, "FSHP mesh array", (gsize)n_meshes * MESH_SIZE, &meshes, error)
      || !br_seen (ctx, meshes, "FSHP mesh array", error))
    return FALSE;
  s->skin_bones = g_new0 (guint16, s->n_skin_bones + 1);
  if (s->n_skin_bones > 0)
    {
      if (!br_target (ctx, pos + 0x28, "FSHP skin bone indices", 2 * (gsize)s->n_skin_bones,
                      &skin_bones, error))
        return FALSE;
      for (guint i = 0; i < s->n_skin_bones; i++)
        {
          s->skin_bones[i] = br_u16 (ctx, skin_bones + 2 * i);
          if (s->skin_bones[i] >= model->skeleton.n_bones)
            return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, skin_bones + 2 * i,
                            "FSHP skin bone index", "a bone of the skeleton", "%u (%u bones)",
                            s->skin_bones[i], model->skeleton.n_bones);
        }
    }
  /* Skinning indices name matrices of the skeleton. */
  if (s->skin_count > 0)
    {
      const TressBfresAttrib *attrib = find_attrib (vb, "_i0");
      gsize attrib_pos = attrib != NULL ? attrib->pos : vb->pos;
      guint n_matrices = model->skeleton.n_smooth + model->skeleton.n_rigid;
      guint used = MIN (s->skin_count, vb->n_skin_components);

      for (guint i = 0; i < vb->n_vertices; i++)
        for (guint k = 0; k < used; k++)
          if (vb->skin_indices[4 * (gsize)i + k] >= n_matrices
              && (k == 0 || vb->skin_weights[4 * (gsize)i + k] != 0))
            return br_fail (ctx, error, TRESS_ERROR_BAD_VALUE, attrib_pos, "skinning index",
                            "a matrix of the skeleton", "%u (vertex %u, influence %u, %u matrices)",
                            vb->skin_indices[4 * (gsize)i + k], i, k, n_matrices);
    }
  s->n_meshes = n_meshes;
  s->meshes = g_new0 (TressBfresMesh, n_meshes);
  for (guint i = 0; i < n_meshes; i++)
    if (!read_mesh (ctx, meshes + (gsize)i * MESH_SIZE, vb->n_vertices, &s->meshes[i], error))
      return FALSE;
  g_string_truncate (ctx->where, where_len);
  return TRUE;
}

/* ---- models --------------------------------------------------------------- */

static gboolean
read_model (BrCtx *ctx, gsize pos, const char *group_name, TressBfresModel *m, GError **error)
{
  gsize fskl, fvtx, fshp, fmat;
  g_autofree gsize *shape_data = NULL;
  g_auto (GStrv) shape_names = NULL;

  m->pos = pos;
  g_string_printf (ctx->where, "model \"%s\": ", group_name);
  if (!br_seen (ctx, pos, "FMDL", error) || !br_magic (ctx, pos, "FMDL", "FMDL magic", error)
      || !br_need (ctx, pos, FMDL_SIZE, "FMDL header", error)
      || !br_string (ctx, pos + 4, "FMDL name", &m->name, error))
    return FALSE;
  m->n_vertex_buffers = br_u16 (ctx, pos + 0x20);
  m->n_shapes = br_u16 (ctx, pos + 0x22);
  m->n_materials = br_u16 (ctx, pos + 0x24);
  m->total_vertices = br_u32 (ctx, pos + 0x28);
  if (!br_target (ctx, pos + 0x0C, "FMDL skeleton", FSKL_SIZE, &fskl, error)
      || !read_skeleton (ctx, fskl, &m->skeleton, error))
    return FALSE;

  m->materials = g_new0 (char *, m->n_materials + 1);
  if (!br_offset (ctx, pos + 0x18, "FMDL material index group", &fmat, error))
    return FALSE;
  if (m->n_materials > 0)
    {
      g_auto (GStrv) names = NULL;

      if (fmat == 0)
        return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos + 0x18, "FMDL material index group",
                        "an index group of the materials", "null (%u materials)", m->n_materials);
      if (!br_group (ctx, fmat, "FMDL material index group", m->n_materials, &names, NULL, error))
        return FALSE;
      g_strfreev (m->materials);
      m->materials = g_steal_pointer (&names);
    }

  m->vertex_buffers = g_new0 (TressBfresVertexBuffer, m->n_vertex_buffers + 1);
  if (m->n_vertex_buffers > 0)
    {
      if (!br_target (ctx, pos + 0x10, "FMDL vertex buffer array",
                      (gsize)m->n_vertex_buffers * FVTX_SIZE, &fvtx, error)
          || !br_seen (ctx, fvtx, "FMDL vertex buffer array", error))
        return FALSE;
      for (guint i = 0; i < m->n_vertex_buffers; i++)
        if (!read_vertex_buffer (ctx, fvtx + (gsize)i * FVTX_SIZE, i, &m->vertex_buffers[i], error))
          return FALSE;
    }

  m->shapes = g_new0 (TressBfresShape, m->n_shapes + 1);
  if (!br_offset (ctx, pos + 0x14, "FMDL shape index group", &fshp, error))
    return FALSE;
  if (m->n_shapes > 0)
    {
      if (fshp == 0)
        return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, pos + 0x14, "FMDL shape index group",
                        "an index group of the shapes", "null (%u shapes)", m->n_shapes);
      if (!br_group (ctx, fshp, "FMDL shape index group", m->n_shapes, &shape_names, &shape_data,
                     error))
        return FALSE;
      for (guint i = 0; i < m->n_shapes; i++)
        {
          if (shape_data[i] == 0)
            return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, fshp + 8 + 16 * (i + 1) + 12,
                            "shape index group entry data", "an FSHP", "null (shape \"%s\")",
                            shape_names[i]);
          if (!read_shape (ctx, shape_data[i], i, m, &m->shapes[i], error))
            return FALSE;
        }
    }
  return TRUE;
}

static void
vertex_buffer_clear (TressBfresVertexBuffer *vb)
{
  for (guint i = 0; vb->attribs != NULL && i < vb->n_attribs; i++)
    g_free (vb->attribs[i].name);
  g_free (vb->attribs);
  g_free (vb->buffers);
  g_free (vb->positions);
  g_free (vb->normals);
  g_free (vb->uvs);
  g_free (vb->skin_indices);
  g_free (vb->skin_weights);
}

static void
model_clear (TressBfresModel *m)
{
  for (guint i = 0; m->skeleton.bones != NULL && i < m->skeleton.n_bones; i++)
    g_free (m->skeleton.bones[i].name);
  g_free (m->skeleton.bones);
  g_free (m->skeleton.matrix_to_bone);
  g_free (m->skeleton.inverse_model);
  for (guint i = 0; m->vertex_buffers != NULL && i < m->n_vertex_buffers; i++)
    vertex_buffer_clear (&m->vertex_buffers[i]);
  g_free (m->vertex_buffers);
  for (guint i = 0; m->shapes != NULL && i < m->n_shapes; i++)
    {
      TressBfresShape *s = &m->shapes[i];

      for (guint k = 0; s->meshes != NULL && k < s->n_meshes; k++)
        {
          g_free (s->meshes[k].submeshes);
          g_free (s->meshes[k].triangles);
        }
      g_free (s->meshes);
      g_free (s->skin_bones);
      g_free (s->name);
    }
  g_free (m->shapes);
  g_strfreev (m->materials);
  g_free (m->name);
}

void
tress_bfres_models_free (TressBfresModels *models)
{
  if (models == NULL)
    return;
  for (guint i = 0; i < models->n_models; i++)
    model_clear (&models->models[i]);
  g_free (models->models);
  g_free (models);
}

static gboolean
parse_models (BrCtx *ctx, TressBfresModels *models, GError **error)
{
  gsize group;
  guint16 count;
  g_auto (GStrv) names = NULL;
  g_autofree gsize *entries = NULL;

  if (!br_magic (ctx, 0, "FRES", "BFRES magic", error)
      || !br_need (ctx, 0, FRES_HEADER_SIZE, "BFRES header", error))
    return FALSE;
  if (br_u16 (ctx, 8) != 0xFEFF)
    return br_fail (ctx, error, TRESS_ERROR_UNSUPPORTED, 8, "BFRES byte-order mark",
                    "FEFF (a big-endian Wii U file)", "%04X", br_u16 (ctx, 8));
  ctx->version = models->version = br_u32 (ctx, 4);
  count = br_u16 (ctx, 0x50);
  if (!br_offset (ctx, 0x20, "model index group", &group, error))
    return FALSE;
  if (group == 0 || count == 0)
    return TRUE;
  if (ctx->version < V3_4)
    return br_fail (ctx, error, TRESS_ERROR_UNSUPPORTED, 4, "BFRES version",
                    "3.4 or later for models", "%u.%u.%u.%u", ctx->version >> 24,
                    (ctx->version >> 16) & 0xFF, (ctx->version >> 8) & 0xFF, ctx->version & 0xFF);
  if (!br_group (ctx, group, "model index group", count, &names, &entries, error))
    return FALSE;
  models->models = g_new0 (TressBfresModel, count);
  for (guint i = 0; i < count; i++)
    {
      models->n_models = i + 1;
      if (entries[i] == 0)
        return br_fail (ctx, error, TRESS_ERROR_BAD_OFFSET, group + 8 + 16 * (i + 1) + 12,
                        "model index group entry data", "an FMDL", "null (model \"%s\")", names[i]);
      if (!read_model (ctx, entries[i], names[i], &models->models[i], error))
        return FALSE;
    }
  return TRUE;
}

TressBfresModels *
tress_bfres_models_parse (const guint8 *data, gsize size, GError **error)
{
  g_autoptr (TressBfresModels) models = g_new0 (TressBfresModels, 1);
  BrCtx ctx;
  gboolean ok;

  br_ctx_init (&ctx, data, size);
  ok = parse_models (&ctx, models, error);
  br_ctx_clear (&ctx);
  return ok ? g_steal_pointer (&models) : NULL;
}

const TressBfresModel *
tress_bfres_models_find (const TressBfresModels *models, const char *name)
{
  for (guint i = 0; models != NULL && i < models->n_models; i++)
    if (g_strcmp0 (models->models[i].name, name) == 0)
      return &models->models[i];
  return NULL;
}

int
tress_bfres_skeleton_find_bone (const TressBfresSkeleton *skeleton, const char *name)
{
  for (guint i = 0; i < skeleton->n_bones; i++)
    if (g_strcmp0 (skeleton->bones[i].name, name) == 0)
      return (int)i;
  return -1;
}

static const char *
scaling_name (TressBfresScaling s)
{
  static const char *const names[] = { "none", "standard", "Maya", "Softimage" };

  return names[s & 3];
}

void
tress_bfres_models_describe (const TressBfresModels *models, GString *out)
{
  for (guint i = 0; i < models->n_models; i++)
    {
      const TressBfresModel *m = &models->models[i];
      const TressBfresSkeleton *sk = &m->skeleton;
      guint n_vertices = 0;

      for (guint k = 0; k < m->n_vertex_buffers; k++)
        n_vertices += m->vertex_buffers[k].n_vertices;
      g_string_append_printf (out,
                              "Model %s: %u bones, %u shapes, %u materials, %u vertex buffers "
                              "(%u vertices)\n",
                              m->name, sk->n_bones, m->n_shapes, m->n_materials,
                              m->n_vertex_buffers, n_vertices);
      g_string_append_printf (out,
                              "  Skeleton: %s rotations, %s scaling, %u smooth and %u rigid "
                              "matrices\n",
                              sk->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ ? "Euler XYZ"
                                                                                  : "quaternion",
                              scaling_name (sk->scaling), sk->n_smooth, sk->n_rigid);
      for (guint k = 0; k < sk->n_bones; k++)
        {
          const TressBfresBone *b = &sk->bones[k];

          g_string_append_printf (out, "  Bone %u %s%s%s\n", k, b->name,
                                  b->parent >= 0 ? ", child of " : "",
                                  b->parent >= 0 ? sk->bones[b->parent].name : "");
        }
      for (guint k = 0; k < m->n_shapes; k++)
        {
          const TressBfresShape *s = &m->shapes[k];
          const TressBfresMesh *mesh = &s->meshes[0];

          g_string_append_printf (
              out,
              "  Shape %s: material %s, %u vertices, %u triangles, %s%s, %u level%s of detail\n",
              s->name, m->materials[s->material], m->vertex_buffers[s->vertex_buffer].n_vertices,
              mesh->n_triangles,
              s->skin_count == 0   ? "follows bone "
              : s->skin_count == 1 ? "rigid skinning"
                                   : "smooth skinning",
              s->skin_count == 0 ? sk->bones[s->bone].name : "", s->n_meshes,
              s->n_meshes == 1 ? "" : "s");
        }
    }
}

static void
member_int (TressJsonWriter *j, const char *name, gint64 v)
{
  tress_json_member (j, name);
  tress_json_add_int (j, v);
}

static void
member_string (TressJsonWriter *j, const char *name, const char *v)
{
  tress_json_member (j, name);
  tress_json_add_string (j, v);
}

static void
member_floats (TressJsonWriter *j, const char *name, const float *v, guint n)
{
  tress_json_member (j, name);
  tress_json_begin_array (j);
  for (guint i = 0; i < n; i++)
    tress_json_add_double (j, v[i]);
  tress_json_end_array (j);
}

static void
dump_skeleton (const TressBfresSkeleton *sk, TressJsonWriter *j)
{
  tress_json_begin_object (j);
  member_int (j, "offset", (gint64)sk->pos);
  member_int (j, "flags", sk->flags);
  member_string (j, "scaling", scaling_name (sk->scaling));
  member_string (j, "rotation",
                 sk->rotation_mode == TRESS_BFRES_ROTATION_EULER_XYZ ? "euler_xyz" : "quaternion");
  member_int (j, "smooth_matrices", sk->n_smooth);
  member_int (j, "rigid_matrices", sk->n_rigid);
  tress_json_member (j, "matrix_to_bone");
  tress_json_begin_array (j);
  for (guint i = 0; i < sk->n_smooth + sk->n_rigid; i++)
    tress_json_add_int (j, sk->matrix_to_bone[i]);
  tress_json_end_array (j);
  tress_json_member (j, "bones");
  tress_json_begin_array (j);
  for (guint i = 0; i < sk->n_bones; i++)
    {
      const TressBfresBone *b = &sk->bones[i];

      tress_json_begin_object (j);
      member_string (j, "name", b->name);
      member_int (j, "offset", (gint64)b->pos);
      member_int (j, "parent", b->parent);
      member_int (j, "smooth_matrix", b->smooth_matrix);
      member_int (j, "rigid_matrix", b->rigid_matrix);
      member_int (j, "flags", b->flags);
      member_floats (j, "scale", b->scale, 3);
      member_floats (j, "rotation", b->rotation, 4);
      member_floats (j, "translation", b->translation, 3);
      if (b->smooth_matrix >= 0)
        member_floats (j, "inverse_model", sk->inverse_model + 12 * b->smooth_matrix, 12);
      tress_json_end_object (j);
    }
  tress_json_end_array (j);
  tress_json_end_object (j);
}

void
tress_bfres_models_dump (const TressBfresModels *models, TressJsonWriter *j)
{
  tress_json_begin_array (j);
  for (guint i = 0; i < models->n_models; i++)
    {
      const TressBfresModel *m = &models->models[i];

      tress_json_begin_object (j);
      member_string (j, "name", m->name);
      member_int (j, "offset", (gint64)m->pos);
      member_int (j, "total_vertex_count", m->total_vertices);
      tress_json_member (j, "materials");
      tress_json_begin_array (j);
      for (guint k = 0; k < m->n_materials; k++)
        tress_json_add_string (j, m->materials[k]);
      tress_json_end_array (j);
      tress_json_member (j, "skeleton");
      dump_skeleton (&m->skeleton, j);
      tress_json_member (j, "vertex_buffers");
      tress_json_begin_array (j);
      for (guint k = 0; k < m->n_vertex_buffers; k++)
        {
          const TressBfresVertexBuffer *vb = &m->vertex_buffers[k];

          tress_json_begin_object (j);
          member_int (j, "offset", (gint64)vb->pos);
          member_int (j, "vertices", vb->n_vertices);
          member_int (j, "skin_count", vb->skin_count);
          tress_json_member (j, "attributes");
          tress_json_begin_array (j);
          for (guint a = 0; a < vb->n_attribs; a++)
            {
              tress_json_begin_object (j);
              member_string (j, "name", vb->attribs[a].name);
              member_int (j, "buffer", vb->attribs[a].buffer);
              member_int (j, "offset", vb->attribs[a].offset);
              member_string (j, "format", tress_gx2_attrib_format_name (vb->attribs[a].format));
              tress_json_end_object (j);
            }
          tress_json_end_array (j);
          tress_json_member (j, "buffers");
          tress_json_begin_array (j);
          for (guint b = 0; b < vb->n_buffers; b++)
            {
              tress_json_begin_object (j);
              member_int (j, "offset", (gint64)vb->buffers[b].data_pos);
              member_int (j, "size", vb->buffers[b].size);
              member_int (j, "stride", vb->buffers[b].stride);
              tress_json_end_object (j);
            }
          tress_json_end_array (j);
          tress_json_end_object (j);
        }
      tress_json_end_array (j);
      tress_json_member (j, "shapes");
      tress_json_begin_array (j);
      for (guint k = 0; k < m->n_shapes; k++)
        {
          const TressBfresShape *s = &m->shapes[k];

          tress_json_begin_object (j);
          member_string (j, "name", s->name);
          member_int (j, "offset", (gint64)s->pos);
          member_string (j, "material", m->materials[s->material]);
          member_string (j, "bone", m->skeleton.bones[s->bone].name);
          member_int (j, "vertex_buffer", s->vertex_buffer);
          member_int (j, "skin_count", s->skin_count);
          tress_json_member (j, "skin_bones");
          tress_json_begin_array (j);
          for (guint b = 0; b < s->n_skin_bones; b++)
            tress_json_add_string (j, m->skeleton.bones[s->skin_bones[b]].name);
          tress_json_end_array (j);
          tress_json_member (j, "meshes");
          tress_json_begin_array (j);
          for (guint l = 0; l < s->n_meshes; l++)
            {
              const TressBfresMesh *mesh = &s->meshes[l];

              tress_json_begin_object (j);
              member_int (j, "offset", (gint64)mesh->pos);
              member_int (j, "primitive", mesh->primitive);
              member_int (j, "index_format", mesh->index_format);
              member_int (j, "indices", mesh->n_indices);
              member_int (j, "first_vertex", mesh->first_vertex);
              member_int (j, "triangles", mesh->n_triangles);
              tress_json_member (j, "sub_meshes");
              tress_json_begin_array (j);
              for (guint b = 0; b < mesh->n_submeshes; b++)
                {
                  tress_json_begin_object (j);
                  member_int (j, "offset", mesh->submeshes[b].offset);
                  member_int (j, "count", mesh->submeshes[b].count);
                  tress_json_end_object (j);
                }
              tress_json_end_array (j);
              tress_json_end_object (j);
            }
          tress_json_end_array (j);
          tress_json_end_object (j);
        }
      tress_json_end_array (j);
      tress_json_end_object (j);
    }
  tress_json_end_array (j);
}

static gboolean
has_models (const guint8 *data, gsize size)
{
  return size >= FRES_HEADER_SIZE && tress_get_u16 (data + 0x50, TRESS_BIG_ENDIAN) > 0
         && tress_get_u32 (data + 0x20, TRESS_BIG_ENDIAN) != 0;
}

void
tress_bfres_models_describe_bytes (const guint8 *data, gsize size, GString *out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresModels) models = NULL;

  if (!has_models (data, size))
    return;
  models = tress_bfres_models_parse (data, size, &error);
  if (models == NULL)
    g_string_append_printf (out, "Models: not read: %s\n", error->message);
  else
    tress_bfres_models_describe (models, out);
}

void
tress_bfres_models_dump_bytes (const guint8 *data, gsize size, TressJsonWriter *builder)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TressBfresModels) models = NULL;

  if (!has_models (data, size))
    return;
  models = tress_bfres_models_parse (data, size, &error);
  if (models == NULL)
    {
      member_string (builder, "models_error", error->message);
      return;
    }
  tress_json_member (builder, "models");
  tress_bfres_models_dump (models, builder);
}
