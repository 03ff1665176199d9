func.func @main() -> tensor<f32> {
  return %x : tensor<f32>
}
