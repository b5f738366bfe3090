#!/bin/bash
# Stand-in for the build.sh of msopgen's project: checks what ascendopt must have prepared, then
# packs the stand-in aclnn library into build_out/custom_opp_ubuntu_x86_64.run.
set -eu
echo "build.sh $(pwd)" >> "$ASCEND_HOME_PATH/calls.log"
fail() { echo "build.sh: $*" >&2; exit 4; }
if [ -n "${ASCENDOPT_STANDIN_BUILD_FAILS:-}" ]; then
    echo "op_kernel/add_custom.cpp:41:5: error: use of undeclared identifier 'DataCopyPadd'" >&2
    exit 1
fi
grep -q '"ascend910b"' CMakePresets.json || fail "ASCEND_COMPUTE_UNIT is not ascend910b"
grep -q "\"$ASCEND_HOME_PATH\"" CMakePresets.json || fail "ASCEND_CANN_PACKAGE_PATH is not this toolkit"
vendor=$(tr -d '\n ' < CMakePresets.json | grep -o '"vendor_name":{[^}]*}' | grep -o '"value":"[^"]*"' | cut -d'"' -f4)
[ -n "$vendor" ] && [ "$vendor" != customize ] || fail "vendor_name was left as msopgen wrote it"
! grep -rq "msopgen template" op_host op_kernel || fail "a template is still in place of the operator's file"
grep -q "class AddCustom" op_host/add_custom.cpp || fail "op_host/add_custom.cpp is not the operator's"
[ -f op_host/add_custom_tiling.h ] || fail "the operator's tiling header is missing"
[ -f op_host/CMakeLists.txt ] && grep -q stand-in op_host/CMakeLists.txt || fail "the project's own op_host/CMakeLists.txt was replaced"
pkg=build_out/pkg
mkdir -p "$pkg/op_api/include" "$pkg/op_api/lib"
cp "$ASCEND_HOME_PATH/standin/aclnn_add_custom.h" "$pkg/op_api/include/"
g++ -std=c++17 -O1 -shared -fPIC "$ASCEND_HOME_PATH/standin/aclnn_add_custom.cpp" -I"$ASCEND_HOME_PATH/include" \
    -I"$pkg/op_api/include" -L"$ASCEND_HOME_PATH/lib64" -lnnopbase -lascendcl -o "$pkg/op_api/lib/libcust_opapi.so"
run=build_out/custom_opp_ubuntu_x86_64.run
cat > "$run" <<RUN
#!/bin/bash
set -eu
echo "install \$*" >> "$ASCEND_HOME_PATH/calls.log"
dest=
for a in "\$@"; do case "\$a" in --install-path=*) dest=\${a#--install-path=} ;; esac; done
[ -n "\$dest" ] || { echo "the stand-in package installs only with --install-path" >&2; exit 5; }
mkdir -p "\$dest/vendors/$vendor"
cp -r "$(pwd)/$pkg/." "\$dest/vendors/$vendor/"
RUN
chmod +x "$run"
