/* tress-bfres-setpose.h: a bone's local transform at one frame, as keys
 *
 * What a pose gizmo in the preview (and `tress-cli set-pose`) asks for: "at
 * frame F, bone B has this scale, rotation and translation". Each component
 * asked for becomes a key of the bone's curve at F, through the same curve
 * edit operations and the same store (tress-curve-commit.h) the graph uses:
 *   - a curve with a key at F: that key moves to the new value (its slopes
 *     stay); only the two segments meeting it are written again;
 *   - a curve without one: a key is inserted at F on the curve (its shape
 *     kept), then set; only the segment F falls in becomes two;
 *   - a component with only a base value becomes a curve only when the value
 *     changes: keys at frame 0, F and the animation's last frame, the base
 *     value at both ends, flat slopes (the BoneAnim gains the curve as a glTF
 *     import adds one: tress-bfres-skeletal.h);
 *   - a component the curve already plays at F (within half its stored step)
 *     is left alone.
 * Euler XYZ angles stay continuous: of the angles 2π apart that give the
 * rotation asked for, the one nearest the curve's value at F is stored.
 * Quaternion animations get the quaternion of the rotation, on the side
 * (q or −q) nearest the one played at F.
 *
 * Values land on the curve's stored steps. What would cost more than that —
 * a frame the frame type cannot hold, a value outside the quantized range
 * (a coarser step for the whole curve, or a wider type) — is refused unless
 * @consent names it, with the cost in numbers. All or nothing: a refusal
 * leaves the file as it was. One call is one user action: a document keeps
 * the FRES bytes before it (tress_bfres_get_bfres_bytes) for its undo step
 * and puts them back with tress_bfres_restore_fres.
 *
 * GLib only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-curve-commit.h"
#include "tress-bfres-anim.h"
#include "tress-bfres.h"

G_BEGIN_DECLS

/* The local transform asked for; only the parts marked are set. */
typedef struct
{
  gboolean has_scale, has_rotation, has_translation;
  double scale[3];
  double rotation[3]; /* Euler XYZ, radians (X applies first: R = Rz·Ry·Rx) */
  double translation[3];
} TressBfresBonePose;

typedef enum
{
  TRESS_BFRES_POSE_UNCHANGED, /* the file already plays the value at the frame */
  TRESS_BFRES_POSE_MOVED,     /* the key at the frame was set */
  TRESS_BFRES_POSE_INSERTED,  /* a key was inserted at the frame */
  TRESS_BFRES_POSE_ADDED,     /* a base value became a curve */
} TressBfresPoseAction;

/* What happened to one component. */
typedef struct
{
  TressBfresChannel channel;
  TressBfresPoseAction action;
  gboolean angle;   /* an Euler angle (radians) */
  double requested; /* the value asked for (an angle: the continuous one) */
  double stored;    /* what the file now plays at the frame */
  double step;      /* the curve's value step (0: f32 values) */
  double max_error; /* the largest quantization error of the values stored */
  int curve;        /* the curve's index in the file afterwards, or −1 */
} TressBfresPoseChange;

/* Sets bone @bone's local transform at @frame (0 … the animation's frame
 * count) of skeletal animation @anim (the file's numbering). @skeleton (may
 * be NULL): the skeleton the animation plays on, whose bind pose gives the
 * components the BoneAnim stores no base value for (real files leave many
 * bones' translation to it); a translation asked for there is refused
 * without it, and with it the bind translation is stored as the base value
 * when a translation curve is added. @changes (may be
 * NULL) gets a TressBfresPoseChange per component asked for; @notes (may be
 * NULL) a line (char *) for each thing stored beyond the values (a wider
 * type, a coarser step, the file's growth). Errors: TRESS_ERROR_BAD_VALUE
 * for what names nothing or lies outside the animation (no such animation or
 * bone, a frame outside it, a value that is no finite number);
 * TRESS_ERROR_REFUSED for what @consent does not cover (a wider type, a
 * coarser step); TRESS_ERROR_UNSUPPORTED for what no consent lifts (a bind
 * pose component without @skeleton). Curve indices of the file may change (a curve added): read
 * them again. */
gboolean tress_bfres_set_pose (TressBfres *bfres, guint anim, const char *bone, double frame,
                               const TressBfresBonePose *pose, const TressBfresSkeleton *skeleton,
                               TressCommitConsent consent, GArray *changes, GPtrArray *notes,
                               GError **error);

/* "Rotate X", "Translate Y", … */
const char *tress_bfres_channel_label (TressBfresChannel channel);

G_END_DECLS
