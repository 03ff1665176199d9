func.func @main() {
  %0 = stablehlo.constant dense_resource<blob> : tensor<2xi32>
  return
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000100000002000000"
    }
  }
#-}
