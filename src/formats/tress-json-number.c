/* tress-json-number.c: numbers as text for the JSON writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-private.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ==== numbers as text ======================================================= */

/* Negative zero: "-0" is the integer 0 to some readers (Python's json, which
 * writes it back as "0"); "-0.0" is a float to every reader that keeps the
 * sign of zero at all. */
#define NEGATIVE_ZERO "-0.0"

/* Powers of ten as doubles (exact up to 1e22, correctly rounded above). */
const double _tress_json_p10[61]
    = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12,
        1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25,
        1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38,
        1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49, 1e50, 1e51,
        1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60 };

static const guint64 ip10[20] = {
  G_GUINT64_CONSTANT (1),
  G_GUINT64_CONSTANT (10),
  G_GUINT64_CONSTANT (100),
  G_GUINT64_CONSTANT (1000),
  G_GUINT64_CONSTANT (10000),
  G_GUINT64_CONSTANT (100000),
  G_GUINT64_CONSTANT (1000000),
  G_GUINT64_CONSTANT (10000000),
  G_GUINT64_CONSTANT (100000000),
  G_GUINT64_CONSTANT (1000000000),
  G_GUINT64_CONSTANT (10000000000),
  G_GUINT64_CONSTANT (100000000000),
  G_GUINT64_CONSTANT (1000000000000),
  G_GUINT64_CONSTANT (10000000000000),
  G_GUINT64_CONSTANT (100000000000000),
  G_GUINT64_CONSTANT (1000000000000000),
  G_GUINT64_CONSTANT (10000000000000000),
  G_GUINT64_CONSTANT (100000000000000000),
  G_GUINT64_CONSTANT (1000000000000000000),
  G_GUINT64_CONSTANT (10000000000000000000),
};

/* Decimal digits of @v into @buf (no NUL); returns their count. */
static int
put_uint (char *buf, guint64 v)
{
  char tmp[24];
  int n = 0;

  do
    {
      tmp[n++] = (char)('0' + v % 10);
      v /= 10;
    }
  while (v > 0);
  for (int i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  return n;
}

int
_tress_json_put_int (char *buf, gint64 v)
{
  if (v < 0)
    {
      buf[0] = '-';
      return 1 + put_uint (buf + 1, v == G_MININT64 ? (guint64)G_MAXINT64 + 1 : (guint64)-v);
    }
  return put_uint (buf, (guint64)v);
}

/* @m (exactly @p digits) × 10^(@e10 − @p + 1) as text, the way %g writes it
 * (trailing zeros dropped); returns the length. */
static int
put_decimal (char *buf, gboolean negative, guint64 m, int p, int e10)
{
  char digits[24];
  int nd, n = 0;

  put_uint (digits, m);
  nd = p;
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;
  if (negative)
    buf[n++] = '-';
  if (e10 < -4 || e10 >= p)
    {
      buf[n++] = digits[0];
      if (nd > 1)
        {
          buf[n++] = '.';
          memcpy (buf + n, digits + 1, nd - 1);
          n += nd - 1;
        }
      buf[n++] = 'e';
      n += _tress_json_put_int (buf + n, e10);
    }
  else if (e10 >= 0)
    {
      for (int i = 0; i <= e10; i++)
        buf[n++] = i < nd ? digits[i] : '0';
      if (nd > e10 + 1)
        {
          buf[n++] = '.';
          memcpy (buf + n, digits + e10 + 1, nd - e10 - 1);
          n += nd - e10 - 1;
        }
    }
  else
    {
      buf[n++] = '0';
      buf[n++] = '.';
      for (int i = 0; i < -e10 - 1; i++)
        buf[n++] = '0';
      memcpy (buf + n, digits, nd);
      n += nd;
    }
  buf[n] = '\0';
  return n;
}

/* Whether the decimal @d (close to |@f|, computed with a small rounding
 * error) lies so far inside |@f|'s rounding interval that any reader turning
 * its text into the nearest double, then float, gets @f back. */
static gboolean
reads_back (float f, double d)
{
  float af = fabsf (f);
  double lo = ((double)nextafterf (af, 0.0f) + af) / 2;
  double hi = ((double)nextafterf (af, INFINITY) + af) / 2;
  double margin = d * 1e-15;

  return d > lo + margin && d < hi - margin;
}

/* The text of a finite float: a whole number as digits; otherwise the fewest
 * significant digits (7 to 9) that read back to the same bits. Nine always do
 * (even a last digit off by one stays within half a unit of the float), so
 * the rounding error of the scaling below is harmless. */
void
_tress_json_format_float (char *buf, gsize size, float v)
{
  double d = fabs ((double)v);
  int e10;

  g_assert (size >= 32);
  if (v == truncf (v) && fabsf (v) < 1e15f)
    {
      int n;

      if (v == 0 && signbit (v))
        {
          strcpy (buf, NEGATIVE_ZERO);
          return;
        }
      n = _tress_json_put_int (buf, (gint64)v);
      buf[n] = '\0';
      return;
    }
  e10 = (int)floor (log10 (d));
  for (int p = 7; p <= 9; p++)
    for (int attempt = 0; attempt < 4; attempt++)
      {
        int k = p - 1 - e10;
        double scaled;
        guint64 m;

        if (k > 60 || k < -60)
          break;
        scaled = k >= 0 ? d * _tress_json_p10[k] : d / _tress_json_p10[-k];
        m = (guint64)(scaled + 0.5);
        if (m >= ip10[p])
          {
            e10++;
            continue;
          }
        if (m < ip10[p - 1])
          {
            e10--;
            continue;
          }
        if (p == 9
            || reads_back (v, k >= 0 ? (double)m / _tress_json_p10[k]
                                     : (double)m * _tress_json_p10[-k]))
          {
            put_decimal (buf, signbit (v), m, p, e10);
            return;
          }
        break;
      }
  g_ascii_formatd (buf, size, "%.9g", v); /* not reached for finite floats */
}

void
_tress_json_format_double (char *buf, gsize size, double v)
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (v == trunc (v) && fabs (v) < 1e15)
    {
      if (v == 0 && signbit (v))
        strcpy (buf, NEGATIVE_ZERO);
      else
        buf[_tress_json_put_int (buf, (gint64)v)] = '\0';
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buf, size, formats[i], v);
      if (i + 1 == G_N_ELEMENTS (formats) || g_ascii_strtod (buf, NULL) == v)
        return;
    }
}
