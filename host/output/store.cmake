# The SQLite sink (host/output/sqlite_sink.c, --db): Debian's libsqlite3, and tools/store/schema.sql embedded as
# one C array (the one schema file, read by this sink and by tools/vkbstore.py alike; an edit of it configures
# again). The build's identity as the store records it: the source commit and the shader compiler's version at
# configure time, and the build options that change what the binary measures.
find_package(SQLite3 REQUIRED)
set(vkb_schema ${CMAKE_SOURCE_DIR}/tools/store/schema.sql)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${vkb_schema})
file(READ ${vkb_schema} vkb_schema_hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," vkb_schema_hex "${vkb_schema_hex}")
file(WRITE ${CMAKE_BINARY_DIR}/store_schema.c.new
     "/* generated from tools/store/schema.sql by host/output/store.cmake */\n"
     "extern const char vkb_store_schema[];\nconst char vkb_store_schema[] = {${vkb_schema_hex}0};\n")
file(COPY_FILE ${CMAKE_BINARY_DIR}/store_schema.c.new ${CMAKE_BINARY_DIR}/store_schema.c ONLY_IF_DIFFERENT)
execute_process(COMMAND git -C ${CMAKE_SOURCE_DIR} rev-parse HEAD OUTPUT_VARIABLE vkb_commit
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0)
    set(vkb_commit "")
endif()
execute_process(COMMAND ${Vulkan_GLSLANG_VALIDATOR_EXECUTABLE} --version OUTPUT_VARIABLE vkb_glslang ERROR_QUIET)
string(REGEX MATCH "Glslang Version: [^\n]*" vkb_glslang "${vkb_glslang}")
string(REPLACE "Glslang Version: " "glslang " vkb_glslang "${vkb_glslang}")
target_sources(vkb_output PRIVATE ${CMAKE_BINARY_DIR}/store_schema.c)
target_link_libraries(vkb_output PUBLIC SQLite::SQLite3)
set_source_files_properties(${CMAKE_SOURCE_DIR}/host/output/sqlite_sink.c PROPERTIES COMPILE_DEFINITIONS
    "VKB_GIT_COMMIT=\"${vkb_commit}\";VKB_SHADER_COMPILER=\"${vkb_glslang}\";VKB_BUILD_TYPE=\"${CMAKE_BUILD_TYPE}\"")
