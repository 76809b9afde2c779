# cmake -P cuda_architectures.cmake: the default CUDA architectures from what nvcc lists (a module
# built for sm_90 only would give an A100 or RTX user a module that cannot run on their GPU). Fixed inputs: nvcc 13's
# list (no compute_70) and nvcc 12.4's; every architecture from 80 up as machine code, the newest also as PTX.
include(${CMAKE_CURRENT_LIST_DIR}/../../cuda/architectures.cmake)
function(expect listed want)
    vkb_cuda_architectures_from("${listed}" got)
    if(NOT got STREQUAL want)
        message(FATAL_ERROR "from '${listed}': '${got}', expected '${want}'")
    endif()
endfunction()
expect("compute_75 compute_80 compute_86 compute_87 compute_88 compute_89 compute_90 compute_100 compute_110 compute_103 compute_120 compute_121"
       "80-real;86-real;87-real;88-real;89-real;90-real;100-real;103-real;110-real;120-real;121")
expect("compute_50\ncompute_52\ncompute_53\ncompute_60\ncompute_61\ncompute_62\ncompute_70\ncompute_72\ncompute_75\ncompute_80\ncompute_86\ncompute_87\ncompute_89\ncompute_90\ncompute_90a\n"
       "80-real;86-real;87-real;89-real;90")
expect("" "")
message("cuda architectures ok")
