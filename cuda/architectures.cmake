# architectures.cmake - vkb_cuda_default_architectures(OUT): the CUDA module as a fat binary for the GPUs
# people have: machine code for every architecture the installed nvcc supports from VKB_CUDA_MIN_ARCH (80,
# Ampere) up, plus PTX of the newest, which the driver compiles for a GPU newer than this nvcc knows. Read from
# `nvcc --list-gpu-arch` (compute_75 compute_80 ... : nvcc 13 lists no compute_70, Volta is gone), so a newer
# or older toolkit gets its own list. Why not Volta/Turing (70, 75): the twins use sm_80 instructions
# (mma.sync m16n8k16 in matmul_tc.cu, redux.sync in reduce.cu), which ptxas refuses below 80.
# -DCMAKE_CUDA_ARCHITECTURES=90 builds one architecture (a faster build for one GPU).
set(VKB_CUDA_MIN_ARCH 80 CACHE STRING "The oldest CUDA architecture of the default fat binary")

# OUT: the architectures in CMAKE_CUDA_ARCHITECTURES form ("80-real;86-real;...;121": the last also as PTX).
# LISTED: nvcc's --list-gpu-arch output (for the test, tests/cli/cuda_architectures.cmake).
function(vkb_cuda_architectures_from listed out)
    string(REGEX MATCHALL "compute_[0-9]+" found "${listed}")
    set(archs "")
    foreach(f ${found})
        string(REPLACE "compute_" "" a ${f})
        if(a GREATER_EQUAL VKB_CUDA_MIN_ARCH)
            list(APPEND archs ${a})
        endif()
    endforeach()
    list(REMOVE_DUPLICATES archs)
    list(SORT archs COMPARE NATURAL)
    list(LENGTH archs n)
    if(n EQUAL 0)
        set(${out} "" PARENT_SCOPE)
        return()
    endif()
    math(EXPR last "${n} - 1")
    list(GET archs ${last} newest)
    list(REMOVE_AT archs ${last})
    list(TRANSFORM archs APPEND "-real")
    list(APPEND archs ${newest})   # machine code and PTX
    set(${out} "${archs}" PARENT_SCOPE)
endfunction()

function(vkb_cuda_default_architectures out)
    execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE listed ERROR_QUIET
                    RESULT_VARIABLE rc)
    if(rc EQUAL 0)
        vkb_cuda_architectures_from("${listed}" archs)
    endif()
    if(NOT archs)   # an nvcc before --list-gpu-arch (CUDA 11.0): Ampere and Hopper, PTX of Hopper
        set(archs 80-real 86-real 90)
        message(STATUS "vkbench: ${CMAKE_CUDA_COMPILER} --list-gpu-arch said nothing: CUDA architectures ${archs}")
    endif()
    set(${out} "${archs}" PARENT_SCOPE)
endfunction()
