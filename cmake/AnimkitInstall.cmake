# `cmake --install`, find_package(animkit CONFIG), animkit.pc and `cpack -G DEB` (issue 33).
# The public API is the headers listed here (animkit/core/README.md, "The public API"): the
# registry, Animated and the core types, each engine's documents and players, the glTF
# exporter and importer, the C API - each with the animkit headers it includes, since an
# installed header must compile. Every other header is internal and not installed.
include(CMakePackageConfigHelpers)

set(ANIMKIT_PUBLIC_core
  registry.h clip.h skeleton.h math.h pose.h error.h json_util.h reader.h writer.h text.h
  neutral_json.h sampling_job.h blending_job.h local_to_model_job.h mesh.h)
set(ANIMKIT_PUBLIC_gltf export.h import.h)
set(ANIMKIT_PUBLIC_c animkit.h)
set(ANIMKIT_PUBLIC_warriors
  module.h document.h container.h clip.h character.h pose.h cursor.h tasks.h clock.h instance.h scenario.h)
set(ANIMKIT_PUBLIC_monster_hunter
  module.h document.h play.h playback.h clip.h key_list.h pack.h skeleton.h pac.h pmo.h tmh.h)
set(ANIMKIT_PUBLIC_call_of_duty
  module.h atr_document.h xanim_document.h xanim_file.h xanim_header.h xanim_sample.h)
set(ANIMKIT_PUBLIC_asherons_call
  module.h player.h assets.h dat.h setup.h animation.h choices.h command_ids.h motion_interp.h
  motion_table.h motion_table_manager.h motion_table_runtime.h physics_obj.h sequence.h wire.h)
set(ANIMKIT_PUBLIC_shadow_of_war
  module.h anix_document.h scenario.h character.h anix.h anix_json.h behavior.h clip_table.h
  dead_body.h event_dictionary.h keyword.h physics_ragdoll.h pose_job.h ragdoll.h
  ragdoll_behavior.h tracker.h worker_pool.h json_sink.h key_sampler.h output_pose.h)
set(ANIMKIT_MODULES core gltf c warriors monster_hunter call_of_duty asherons_call shadow_of_war)
foreach(module ${ANIMKIT_MODULES})
  list(TRANSFORM ANIMKIT_PUBLIC_${module} PREPEND ${PROJECT_SOURCE_DIR}/animkit/${module}/)
  install(FILES ${ANIMKIT_PUBLIC_${module}}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/animkit/${module})
endforeach()

# animkit::animkit: every library (the C API, the glTF exporter and importer, the engines).
add_library(animkit_all INTERFACE)
set_target_properties(animkit_all PROPERTIES EXPORT_NAME animkit)
set(ANIMKIT_LIBRARIES animkit_c animkit_warriors animkit_monster_hunter animkit_call_of_duty
    animkit_asherons_call animkit_shadow_of_war animkit_gltf_import animkit_gltf animkit_core)
target_link_libraries(animkit_all INTERFACE ${ANIMKIT_LIBRARIES})

install(TARGETS ${ANIMKIT_LIBRARIES} animkit_all EXPORT animkitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(ANIMKIT_SHARED)
  set_target_properties(animkit PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
endif()
install(TARGETS animkit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(ANIMKIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/animkit)
install(EXPORT animkitTargets NAMESPACE animkit:: DESTINATION ${ANIMKIT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/animkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/animkitConfig.cmake INSTALL_DESTINATION ${ANIMKIT_CMAKE_DIR})
# 0.x: a consumer asking for 0.1 takes any 0.1.z, not 0.2 (the ABI may change with the minor).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/animkitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/animkitConfig.cmake ${PROJECT_BINARY_DIR}/animkitConfigVersion.cmake
        DESTINATION ${ANIMKIT_CMAKE_DIR})

# animkit.pc, relocatable (prefix from ${pcfiledir}) so that the same file serves the .deb's /usr
# and a test prefix.
file(RELATIVE_PATH ANIMKIT_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" ANIMKIT_PC_TO_PREFIX "${ANIMKIT_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/animkit.pc.in ${PROJECT_BINARY_DIR}/animkit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/animkit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Debian package: `cpack -G DEB` in the build folder makes animkit_VERSION_amd64.deb (the
# program, the libraries, the headers, the CMake and pkg-config files); the shared-library
# dependencies come from the binaries (dpkg-shlibdeps), the -dev ones from what the headers and
# animkitConfig.cmake need.
set(ANIMKIT_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/animkit)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright DESTINATION ${ANIMKIT_DOC_DIR})
execute_process(COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/cmake/debian/changelog
                OUTPUT_FILE ${PROJECT_BINARY_DIR}/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/changelog.gz DESTINATION ${ANIMKIT_DOC_DIR})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME animkit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "character animation of five game engines: library and tool")
# The extended description (CPack puts the summary above it and indents each line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "animkit reads, writes, plays and exports the character animation
of The Warriors, Monster Hunter (PSP), Call of Duty: United Offensive,
Asheron's Call and Shadow of War, each exactly as its engine does it,
to glTF 2.0. The package holds the animkit program, the C++ and C
libraries, their headers, and the CMake and pkg-config files.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # animkit_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "animkit maintainers <maintainers@users.noreply.a-seed-e3cce707.example>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://animkit.invalid/")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "nlohmann-json3-dev, libfmt-dev, libtbb-dev, libhwy-dev, libsimdjson-dev, libtinygltf-dev, libzip-dev, libpng-dev, pkg-config")
include(CPack)
