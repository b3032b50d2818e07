;; The clean proofs' byte scan (see byte-scan.ts), sixteen bytes at a time. The region's bytes are at
;; 0..len of the memory, followed by 16 bytes of 'A' (no digit, space or control byte), so the last
;; vector needs no special case. Writes, as i32 positions from the region's start:
;;  - at gatesOut, each byte that may be a citation's whitespace: {9..13, 32, 0x80..0xff} followed
;;    by an ASCII digit (its count is the result);
;;  - with wantControls, at controlsOut, each byte below 0x20 but \n and the \r of \r\n, at most
;;    maxControls of them (their count in the global controlCount).
(module
  (memory (export "memory") 1)
  (global $controlCount (export "controlCount") (mut i32) (i32.const 0))
  (func (export "scan") (param $len i32) (param $gatesOut i32) (param $controlsOut i32) (param $maxControls i32) (param $wantControls i32) (result i32)
    (local $p i32) (local $v v128) (local $digits i32) (local $spaces i32) (local $carry i32)
    (local $gates i32) (local $ctl i32) (local $ng i32) (local $nc i32) (local $q i32)
    (block $done
      (loop $vectors
        (br_if $done (i32.ge_u (local.get $p) (local.get $len)))
        (local.set $v (v128.load (local.get $p)))
        ;; digits: v - '0' below 10, unsigned
        (local.set $digits (i8x16.bitmask (i8x16.lt_u
          (i8x16.sub (local.get $v) (i8x16.splat (i32.const 0x30)))
          (i8x16.splat (i32.const 10)))))
        ;; space-like: the top bit (0x80 and up), a space, or v - 9 below 5 (\t \n \v \f \r)
        (local.set $spaces (i8x16.bitmask (v128.or
          (v128.or (local.get $v) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x20))))
          (i8x16.lt_u (i8x16.sub (local.get $v) (i8x16.splat (i32.const 9))) (i8x16.splat (i32.const 5))))))
        ;; a digit whose byte before (in this vector, or the last one's top lane) is space-like
        (local.set $gates (i32.and (local.get $digits)
          (i32.or (i32.shl (local.get $spaces) (i32.const 1)) (local.get $carry))))
        (local.set $carry (i32.and (i32.shr_u (local.get $spaces) (i32.const 15)) (i32.const 1)))
        (block $noGates
          (loop $eachGate
            (br_if $noGates (i32.eqz (local.get $gates)))
            (i32.store
              (i32.add (local.get $gatesOut) (i32.shl (local.get $ng) (i32.const 2)))
              (i32.sub (i32.add (local.get $p) (i32.ctz (local.get $gates))) (i32.const 1)))
            (local.set $ng (i32.add (local.get $ng) (i32.const 1)))
            (local.set $gates (i32.and (local.get $gates) (i32.sub (local.get $gates) (i32.const 1))))
            (br $eachGate)))
        (if (local.get $wantControls)
          (then
            (local.set $ctl (i8x16.bitmask (v128.andnot
              (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))
              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0a))))))
            (block $noControls
              (loop $eachControl
                (br_if $noControls (i32.eqz (local.get $ctl)))
                (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $ctl))))
                (local.set $ctl (i32.and (local.get $ctl) (i32.sub (local.get $ctl) (i32.const 1))))
                (if (i32.and
                      (i32.lt_u (local.get $nc) (local.get $maxControls))
                      (i32.eqz (i32.and
                        (i32.eq (i32.load8_u (local.get $q)) (i32.const 0x0d))
                        (i32.eq (i32.load8_u (i32.add (local.get $q) (i32.const 1))) (i32.const 0x0a)))))
                  (then
                    (i32.store
                      (i32.add (local.get $controlsOut) (i32.shl (local.get $nc) (i32.const 2)))
                      (local.get $q))
                    (local.set $nc (i32.add (local.get $nc) (i32.const 1)))))
                (br $eachControl)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors)))
    (global.set $controlCount (local.get $nc))
    (local.get $ng)))
