/* tress-document-private.h: what TressDocument offers its subclasses only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-document.h"

G_BEGIN_DECLS

/* Drops the cached problem list; the next tress_document_get_problems()
 * validates the model again. The document does this itself on the history's
 * "applied" and "changed" signals; a subclass whose model reports each change
 * while a command is being applied (before "applied") calls it first, so views
 * refreshing from that report see the problems of the changed model. */
void tress_document_invalidate_problems (TressDocument *self);

G_END_DECLS
