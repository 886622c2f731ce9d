#!/bin/sh
# Runs a UI test on the current display, or on a private Xvfb server when there
# is none (CI, ssh, the README's test command).
if [ -n "$DISPLAY" ] || [ -n "$WAYLAND_DISPLAY" ]; then
  exec "$@"
fi
exec xvfb-run -a -s "-screen 0 1920x1200x24 -nolisten tcp" "$@"
