#!/usr/bin/env bash
# The Debian package (issue 33, item 5): `cpack -G DEB` in the release build makes
# animkit_VERSION_amd64.deb; its contents (program, libraries, public headers only, CMake and
# pkg-config files), its computed dependencies and lintian (no errors) are checked.
# Usage: deb.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/^project(animkit VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
out=$build/deb
rm -rf "$out"
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
deb=$out/animkit_${version}_amd64.deb
[ -f "$deb" ] || { echo "no $deb"; ls "$out"; exit 1; }
dpkg-deb -c "$deb" | awk '{print $6}' > "$out/contents.txt"
for f in ./usr/bin/animkit ./usr/lib/libanimkit_core.a ./usr/lib/libanimkit_c.a \
         ./usr/include/animkit/core/registry.h ./usr/include/animkit/c/animkit.h \
         ./usr/include/animkit/warriors/document.h ./usr/include/animkit/gltf/export.h \
         ./usr/lib/cmake/animkit/animkitConfig.cmake ./usr/lib/cmake/animkit/animkitConfigVersion.cmake \
         ./usr/lib/cmake/animkit/animkitTargets.cmake ./usr/lib/pkgconfig/animkit.pc \
         ./usr/share/doc/animkit/copyright; do
  grep -qx -- "$f" "$out/contents.txt" || { echo "$f is not in the package"; exit 1; }
done
if grep -q 'soa_kernels.h\|/demo.h$\|tokenizer.h' "$out/contents.txt"; then
  echo "internal headers are in the package"; exit 1
fi
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Computed from the binaries by dpkg-shlibdeps: the C library and the shared ones the program uses.
for d in libc6 libstdc++6 libtbb12 libzip4; do
  echo "$depends" | grep -q "$d" || { echo "$d is missing from Depends"; exit 1; }
done
lintian --fail-on error --suppress-tags-from-file /dev/null "$deb"
echo "$(basename "$deb"): $(wc -l < "$out/contents.txt") entries, lintian: no errors"
