func.func @main() {
  cf.br ^bb1
^bb1:
  return
}
