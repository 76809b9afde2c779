# architectures.cmake - vkb_cuda_default_architectures(OUT): the CUDA module for the GPUs of this machine, so a
# first build takes a minute, not the half hour of every architecture. In order: the compute capabilities
# nvidia-smi reports (each as machine code, the newest also as PTX); without a GPU one small default,
# VKB_CUDA_MIN_ARCH as machine code and PTX, which the driver compiles for any newer GPU on first use. The fat
# binary (every architecture the installed nvcc lists from VKB_CUDA_MIN_ARCH up, the newest also as PTX) only
# when asked: -DVKB_CUDA_ALL_ARCHITECTURES=ON or -DCMAKE_CUDA_ARCHITECTURES=all. Why not Volta/Turing (70, 75):
# the twins use sm_80 instructions (mma.sync m16n8k16 in matmul_tc.cu, redux.sync in reduce.cu), which ptxas
# refuses below 80. -DCMAKE_CUDA_ARCHITECTURES=90 builds exactly what it names.
set(VKB_CUDA_MIN_ARCH 80 CACHE STRING "The oldest CUDA architecture vkbench builds for")
option(VKB_CUDA_ALL_ARCHITECTURES "Build the CUDA module for every architecture nvcc supports (slow)" OFF)

# A list of architecture numbers as CMAKE_CUDA_ARCHITECTURES: each "-real" (machine code), the newest plain
# (machine code and PTX).
function(vkb_cuda_architectures_list archs out)
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

# OUT: the fat binary's architectures ("80-real;86-real;...;121": the last also as PTX).
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
    vkb_cuda_architectures_list("${archs}" result)
    set(${out} "${result}" PARENT_SCOPE)
endfunction()

# OUT: the architectures of the GPUs present. SMI: `nvidia-smi --query-gpu=compute_cap --format=csv,noheader`
# ("9.0" a line per GPU); LISTED: nvcc's --list-gpu-arch, or "" when it lists nothing. A GPU older than
# VKB_CUDA_MIN_ARCH is left out (the twins cannot run on it); one newer than this nvcc knows gets PTX of the
# newest architecture nvcc lists, which its driver compiles. "" when no GPU qualifies.
function(vkb_cuda_architectures_present smi listed out)
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${smi}")
    string(REGEX MATCHALL "compute_[0-9]+" known "${listed}")
    list(TRANSFORM known REPLACE "compute_" "")
    list(SORT known COMPARE NATURAL)
    set(archs "")
    set(ptx "")
    foreach(c ${caps})
        string(REPLACE "." "" a ${c})
        if(a LESS VKB_CUDA_MIN_ARCH)
            continue()
        endif()
        if(NOT known OR a IN_LIST known)
            list(APPEND archs ${a})
        else()   # newer than this nvcc: PTX of the newest it knows
            foreach(k ${known})
                if(k LESS a)
                    set(ptx ${k})
                endif()
            endforeach()
        endif()
    endforeach()
    vkb_cuda_architectures_list("${archs}" result)
    if(ptx AND NOT ptx IN_LIST archs)
        list(TRANSFORM result REPLACE "^([0-9]+)$" "\\1-real")
        list(APPEND result ${ptx})
    endif()
    set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(vkb_cuda_default_architectures out)
    execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE listed ERROR_QUIET
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        set(listed "")
    endif()
    if(VKB_CUDA_ALL_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "all")
        vkb_cuda_architectures_from("${listed}" archs)
        if(NOT archs)   # an nvcc before --list-gpu-arch (CUDA 11.0): Ampere and Hopper, PTX of Hopper
            set(archs 80-real 86-real 90)
        endif()
        set(why "every architecture (asked for)")
    else()
        find_program(VKB_NVIDIA_SMI nvidia-smi)
        set(smi "")
        if(VKB_NVIDIA_SMI)
            execute_process(COMMAND ${VKB_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                            OUTPUT_VARIABLE smi ERROR_QUIET RESULT_VARIABLE smi_rc)
            if(NOT smi_rc EQUAL 0)
                set(smi "")
            endif()
        endif()
        vkb_cuda_architectures_present("${smi}" "${listed}" archs)
        set(why "the GPUs present (nvidia-smi)")
        if(NOT archs)
            set(archs ${VKB_CUDA_MIN_ARCH})
            set(why "no GPU found: sm_${VKB_CUDA_MIN_ARCH} and its PTX, which runs on any newer GPU")
        endif()
    endif()
    message(STATUS "vkbench: CUDA architectures ${archs}: ${why}; -DVKB_CUDA_ALL_ARCHITECTURES=ON builds all")
    set(${out} "${archs}" PARENT_SCOPE)
endfunction()
