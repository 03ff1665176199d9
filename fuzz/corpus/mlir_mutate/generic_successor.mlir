func.func @f() {
  "cf.br"()[^bb1] : () -> ()
^bb1:
  return
}
