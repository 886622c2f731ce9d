/* bench-yaz0-before.h: the earlier Yaz0 compressor, for comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

GBytes *bench_yaz0_compress_before (const guint8 *data, gsize size, const guint8 *reserved);
