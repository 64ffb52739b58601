#!/usr/bin/env bash
# Uses an installed animkit as a new user would (issue 33, item 2): installs the build into a
# fresh prefix, writes `animkit demo`'s files with the installed program, then builds and runs
# tests/consumer against the prefix twice - a CMake project (find_package) and plain compiler
# commands from pkg-config - each in C++ (every engine) and in C (the C API).
# Usage: run_consumers.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1")
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
work=$(realpath "$work")
prefix=$work/_install
cmake --install "$build" --prefix "$prefix" >/dev/null

# Only the public headers are installed (cmake/AnimkitInstall.cmake), and each one's animkit
# includes are installed too.
for h in $(cd "$prefix/include" && find animkit -name '*.h'); do
  for inc in $(sed -n 's/^#include "\(animkit\/[^"]*\)"/\1/p' "$prefix/include/$h"); do
    [ -f "$prefix/include/$inc" ] || { echo "$h includes $inc, which is not installed"; exit 1; }
  done
done
for internal in animkit/core/soa_kernels.h animkit/warriors/demo.h animkit/call_of_duty/tokenizer.h; do
  [ ! -e "$prefix/include/$internal" ] || { echo "internal header $internal is installed"; exit 1; }
done

"$prefix/bin/animkit" demo --out "$work/demo" >/dev/null

echo "== find_package(animkit)"
cmake -S "$here/cmake_project" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer" "$work/demo"
"$work/cmake/consumer_c" "$work/demo" >/dev/null && echo "ok: the C API through animkit::c"

echo "== pkg-config animkit"
export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name animkit.pc)")
export LD_LIBRARY_PATH=$(dirname "$PKG_CONFIG_PATH")  # the shared libraries of an ANIMKIT_SHARED build
[ "$(pkg-config --modversion animkit)" = "$(sed -n 's/^project(animkit VERSION \([0-9.]*\).*/\1/p' "$here/../../CMakeLists.txt")" ]
mkdir -p "$work/pkgconfig"
# shellcheck disable=SC2046  # pkg-config's flags are words
c++ -std=c++20 -O1 -o "$work/pkgconfig/consumer" "$here/consumer.cpp" $(pkg-config --cflags --libs --static animkit)
"$work/pkgconfig/consumer" "$work/demo"
cc -std=c11 -c -o "$work/pkgconfig/c_api_test.o" "$here/../c/c_api_test.c" $(pkg-config --cflags animkit)
c++ -o "$work/pkgconfig/consumer_c" "$work/pkgconfig/c_api_test.o" $(pkg-config --libs --static animkit)
"$work/pkgconfig/consumer_c" "$work/demo" >/dev/null && echo "ok: the C API through pkg-config"
