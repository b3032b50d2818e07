;; The clean proofs' byte kernels: the byte scan (see byte-scan.ts), and the walks of a Parquet
;; page's values (see page-kernels.ts: numbers, texts, examples and their levels, INT64s), which run
;; compiled from their first call where the same loops in JavaScript ran cold for much of a short proof.
;;
;; scan: sixteen bytes at a time. The region's bytes are at 0..len of the memory, followed by 16
;; bytes of 'A' (no digit, space or control byte), so the last vector needs no special case.
;; Writes, as i32 positions from the region's start:
;;  - at gatesOut, each byte that may be a citation's whitespace: {9..13, 32, 0x80..0xff} followed
;;    by an ASCII digit (its count is the result);
;;  - with wantControls, at controlsOut, each byte below 0x20 but \n and the \r of \r\n, at most
;;    maxControls of them (their count in the global controlCount).
(module
  (memory (export "memory") 1)
  (global $controlCount (export "controlCount") (mut i32) (i32.const 0))
  (func $scan (export "scan") (param $len i32) (param $gatesOut i32) (param $controlsOut i32) (param $maxControls i32) (param $wantControls i32) (result i32)
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
    (local.get $ng))
  ;; ---- Parquet pages of PLAIN byte arrays: each value after its four-byte little-endian length,
  ;; the page at 0..len. A value fits when its length and bytes are within the page; bytes after
  ;; the last value are left alone (as stringPage leaves them).

  ;; Where the values of the page end, the last walk's (textValues).
  (global $valuesEnd (export "valuesEnd") (mut i32) (i32.const 0))
  ;; How many gates the last textValues found (at its gatesOut).
  (global $gateCount (export "gateCount") (mut i32) (i32.const 0))

  ;; Whether `count` values fit the page (nothing else looked at).
  (func $fit (param $len i32) (param $count i32) (result i32)
    (local $at i32) (local $i i32) (local $n i32)
    (block $no
      (loop $values
        (if (i32.ge_u (local.get $i) (local.get $count)) (then (return (i32.const 1))))
        (br_if $no (i32.gt_u (i32.add (local.get $at) (i32.const 4)) (local.get $len)))
        (local.set $n (i32.load (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br_if $no (i32.gt_u (local.get $n) (i32.sub (local.get $len) (local.get $at))))
        (local.set $at (i32.add (local.get $at) (local.get $n)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $values)))
    (i32.const 0))

  ;; The rank of a subrule letter (a–k 1–11, m n 12 13, p–z 14–24; l and o skipped), else 0.
  (func $letterRank (param $c i32) (result i32)
    (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x61)) (i32.le_u (local.get $c) (i32.const 0x6b)))
      (then (return (i32.sub (local.get $c) (i32.const 0x60)))))
    (if (i32.or (i32.eq (local.get $c) (i32.const 0x6d)) (i32.eq (local.get $c) (i32.const 0x6e)))
      (then (return (i32.sub (local.get $c) (i32.const 0x61)))))
    (if (i32.and (i32.ge_u (local.get $c) (i32.const 0x70)) (i32.le_u (local.get $c) (i32.const 0x7a)))
      (then (return (i32.sub (local.get $c) (i32.const 0x62)))))
    (i32.const 0))

  ;; numberValues: the number column's `count` values, each exactly a rule number as the row schema
  ;; writes it (ByteView.ruleNumber, rule at most 1023: what a packed key holds), each the one right
  ;; after the one before (the first after `prevKey`, unless it is -1), each index (f64, at indexAt)
  ;; its position: the first's `first` (or, after no row, whatever it is), each next one more.
  ;; Writes each packed key (as CleanProof packs it) at keysOut and a 1 at sectionsOut + section.
  ;; 1: proved; 0: not proved; -1: the values do not fit the page (nothing looked at).
  (func (export "numberValues") (param $len i32) (param $count i32) (param $indexAt i32) (param $keysOut i32) (param $sectionsOut i32) (param $prevKey i32) (param $first f64) (result i32)
    (local $at i32) (local $i i32) (local $from i32) (local $to i32) (local $j i32) (local $d i32)
    (local $section i32) (local $rule i32) (local $rank i32) (local $r i32) (local $letters i32)
    (local $ps i32) (local $pr i32) (local $pk i32) (local $has i32)
    (if (i32.eqz (call $fit (local.get $len) (local.get $count))) (then (return (i32.const -1))))
    (local.set $has (i32.ge_s (local.get $prevKey) (i32.const 0)))
    (if (local.get $has)
      (then
        (local.set $ps (i32.add (i32.shr_u (local.get $prevKey) (i32.const 20)) (i32.const 100)))
        (local.set $pr (i32.and (i32.shr_u (local.get $prevKey) (i32.const 10)) (i32.const 1023)))
        (local.set $pk (i32.and (local.get $prevKey) (i32.const 1023))))
      (else (local.set $first (f64.load (local.get $indexAt)))))
    (block $no
      (loop $values
        (if (i32.ge_u (local.get $i) (local.get $count)) (then (return (i32.const 1))))
        (local.set $from (i32.add (local.get $at) (i32.const 4)))
        (local.set $to (i32.add (local.get $from) (i32.load (local.get $at))))
        (local.set $at (local.get $to))
        ;; Three digits (the first not 0), a dot: five bytes at least.
        (br_if $no (i32.lt_s (i32.sub (local.get $to) (local.get $from)) (i32.const 5)))
        (local.set $d (i32.sub (i32.load8_u (local.get $from)) (i32.const 0x31)))
        (br_if $no (i32.gt_u (local.get $d) (i32.const 8)))
        (local.set $section (i32.mul (i32.add (local.get $d) (i32.const 1)) (i32.const 100)))
        (local.set $d (i32.sub (i32.load8_u offset=1 (local.get $from)) (i32.const 0x30)))
        (br_if $no (i32.gt_u (local.get $d) (i32.const 9)))
        (local.set $section (i32.add (local.get $section) (i32.mul (local.get $d) (i32.const 10))))
        (local.set $d (i32.sub (i32.load8_u offset=2 (local.get $from)) (i32.const 0x30)))
        (br_if $no (i32.gt_u (local.get $d) (i32.const 9)))
        (local.set $section (i32.add (local.get $section) (local.get $d)))
        (br_if $no (i32.ne (i32.load8_u offset=3 (local.get $from)) (i32.const 0x2e)))
        ;; The rule: a digit not 0, then digits (nine at most are read, as ruleNumber reads them).
        (br_if $no (i32.eq (i32.load8_u offset=4 (local.get $from)) (i32.const 0x30)))
        (local.set $j (i32.add (local.get $from) (i32.const 4)))
        (local.set $rule (i32.const 0))
        (block $ruleEnd
          (loop $digits
            (br_if $ruleEnd (i32.ge_u (local.get $j) (local.get $to)))
            (br_if $ruleEnd (i32.ge_u (i32.sub (local.get $j) (local.get $from)) (i32.const 13)))
            (local.set $d (i32.sub (i32.load8_u (local.get $j)) (i32.const 0x30)))
            (br_if $ruleEnd (i32.gt_u (local.get $d) (i32.const 9)))
            (local.set $rule (i32.add (i32.mul (local.get $rule) (i32.const 10)) (local.get $d)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $digits)))
        (br_if $no (i32.eq (local.get $j) (i32.add (local.get $from) (i32.const 4))))
        (br_if $no (i32.gt_u (local.get $rule) (i32.const 1023)))
        ;; Up to two subrule letters, then the value's end.
        (local.set $rank (i32.const 0))
        (local.set $letters (i32.const 0))
        (block $lettersEnd
          (loop $eachLetter
            (br_if $lettersEnd (i32.ge_u (local.get $letters) (i32.const 2)))
            (br_if $lettersEnd (i32.ge_u (local.get $j) (local.get $to)))
            (local.set $r (call $letterRank (i32.load8_u (local.get $j))))
            (br_if $lettersEnd (i32.eqz (local.get $r)))
            (local.set $rank (i32.add (i32.mul (local.get $rank) (i32.const 24)) (local.get $r)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (local.set $letters (i32.add (local.get $letters) (i32.const 1)))
            (br $eachLetter)))
        (br_if $no (i32.ne (local.get $j) (local.get $to)))
        ;; Its index, and its place after the row before (CleanProof.number).
        (if (i32.or (local.get $has) (i32.gt_u (local.get $i) (i32.const 0)))
          (then
            (br_if $no (f64.ne
              (f64.load (i32.add (local.get $indexAt) (i32.shl (local.get $i) (i32.const 3))))
              (f64.add (local.get $first) (f64.convert_i32_u (local.get $i)))))
            (br_if $no (i32.eqz
              (if (result i32) (i32.ne (local.get $section) (local.get $ps))
                (then (i32.and (i32.gt_u (local.get $section) (local.get $ps))
                  (i32.and (i32.eq (local.get $rule) (i32.const 1)) (i32.eqz (local.get $rank)))))
                (else (if (result i32) (i32.eq (local.get $rule) (local.get $pr))
                  (then (i32.eq (local.get $rank) (i32.add (local.get $pk) (i32.const 1))))
                  (else (i32.and (i32.eq (local.get $rule) (i32.add (local.get $pr) (i32.const 1))) (i32.eqz (local.get $rank)))))))))))
        (local.set $ps (local.get $section))
        (local.set $pr (local.get $rule))
        (local.set $pk (local.get $rank))
        (i32.store (i32.add (local.get $keysOut) (i32.shl (local.get $i) (i32.const 2)))
          (i32.or (i32.shl (i32.sub (local.get $section) (i32.const 100)) (i32.const 20))
            (i32.or (i32.shl (local.get $rule) (i32.const 10)) (local.get $rank))))
        (i32.store8 (i32.add (local.get $sectionsOut) (local.get $section)) (i32.const 1))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $values)))
    (i32.const 0))

  ;; Whether c is whitespace as keywordStart takes it: ASCII whitespace, or any byte of a non-ASCII character.
  (func $spaceLike (param $c i32) (result i32)
    (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.ge_u (local.get $c) (i32.const 0x80)))
      (i32.lt_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 5))))

  ;; An ASCII letter, digit or underscore.
  (func $wordChar (param $c i32) (result i32)
    (i32.or (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10)) (i32.eq (local.get $c) (i32.const 0x5f)))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 26))))

  ;; Where the word `which` (0 see, 1 rule, 2 section; `n` its letters) starts when it ends at
  ;; `end`, in any case, not before `from`; else -1.
  (func $endsWith (param $from i32) (param $end i32) (param $which i32) (param $n i32) (result i32)
    (local $start i32)
    (local.set $start (i32.add (i32.sub (local.get $end) (local.get $n)) (i32.const 1)))
    (if (i32.lt_s (local.get $start) (local.get $from)) (then (return (i32.const -1))))
    (if (result i32)
      (if (result i32) (i32.eqz (local.get $which))
        (then (i32.and
          (i32.eq (i32.or (i32.load16_u (local.get $start)) (i32.const 0x2020)) (i32.const 0x6573))
          (i32.eq (i32.or (i32.load8_u offset=2 (local.get $start)) (i32.const 0x20)) (i32.const 0x65))))
        (else (if (result i32) (i32.eq (local.get $which) (i32.const 1))
          (then (i32.eq (i32.or (i32.load (local.get $start)) (i32.const 0x20202020)) (i32.const 0x656c7572)))
          (else (i32.and
            (i32.eq (i32.or (i32.load (local.get $start)) (i32.const 0x20202020)) (i32.const 0x74636573))
            (i32.and
              (i32.eq (i32.or (i32.load16_u offset=4 (local.get $start)) (i32.const 0x2020)) (i32.const 0x6f69))
              (i32.eq (i32.or (i32.load8_u offset=6 (local.get $start)) (i32.const 0x20)) (i32.const 0x6e))))))))
      (then (local.get $start))
      (else (i32.const -1))))

  ;; Whether a citation may start after the whitespace at `at` of a text starting at `from`: what
  ;; keywordStart (clean-view.ts) says, `\b(rules?|sections?|see)` ending before the whitespace.
  (func $keywordBefore (param $from i32) (param $at i32) (result i32)
    (local $end i32) (local $start i32) (local $s i32)
    (local.set $end (local.get $at))
    (block $spaces
      (loop $back
        (br_if $spaces (i32.lt_s (local.get $end) (local.get $from)))
        (br_if $spaces (i32.eqz (call $spaceLike (i32.load8_u (local.get $end)))))
        (local.set $end (i32.sub (local.get $end) (i32.const 1)))
        (br $back)))
    (if (i32.lt_s (local.get $end) (local.get $from)) (then (return (i32.const 0))))
    ;; At most one of the words ends here: they differ in their last letters or in the s.
    (local.set $s (i32.eq (i32.or (i32.load8_u (local.get $end)) (i32.const 0x20)) (i32.const 0x73)))
    (local.set $start (call $endsWith (local.get $from) (local.get $end) (i32.const 0) (i32.const 3)))
    (if (i32.and (i32.lt_s (local.get $start) (i32.const 0)) (local.get $s))
      (then (local.set $start (call $endsWith (local.get $from) (i32.sub (local.get $end) (i32.const 1)) (i32.const 1) (i32.const 4)))))
    (if (i32.and (i32.lt_s (local.get $start) (i32.const 0)) (local.get $s))
      (then (local.set $start (call $endsWith (local.get $from) (i32.sub (local.get $end) (i32.const 1)) (i32.const 2) (i32.const 7)))))
    (if (i32.lt_s (local.get $start) (i32.const 0))
      (then (local.set $start (call $endsWith (local.get $from) (local.get $end) (i32.const 1) (i32.const 4)))))
    (if (i32.lt_s (local.get $start) (i32.const 0))
      (then (local.set $start (call $endsWith (local.get $from) (local.get $end) (i32.const 2) (i32.const 7)))))
    (if (i32.lt_s (local.get $start) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.eq (local.get $start) (local.get $from)) (then (return (i32.const 1))))
    (i32.eqz (call $wordChar (i32.load8_u (i32.sub (local.get $start) (i32.const 1))))))

  ;; textValues: the text column's `count` values, each non-empty and not starting "Example"; each
  ;; length then overwritten with four spaces (so that the values, UTF-8 each, are one UTF-8 run
  ;; up to valuesEnd), the gates of the page found (scan, at gatesOut, their count in gateCount),
  ;; and at citingOut, as (from, to) pairs, each value with a gate that a keyword stands before:
  ;; the only ones that may cite. Their count; -1 when a value fails; -2 when the values do not fit
  ;; the page (nothing looked at). The memory from len on holds 16 bytes of padding, `count` ends
  ;; (i32) at endsOut, the gates, the pairs.
  (func (export "textValues") (param $len i32) (param $count i32) (param $endsOut i32) (param $gatesOut i32) (param $citingOut i32) (result i32)
    (if (i32.eqz (call $fit (local.get $len) (local.get $count))) (then (return (i32.const -2))))
    (call $values (local.get $len) (local.get $count) (local.get $endsOut) (local.get $gatesOut) (local.get $citingOut) (i32.const 1)))

  ;; exampleValues: a page of the examples column as proveExamplePages reads it: `n` entries, each
  ;; its repetition and definition level (i32, at repAt and defAt): a level 0 starts a row (in
  ;; rowsSeen) whose list is empty (definition 1) or holds an example (3); a level 1 adds an
  ;; example to the list before it; `present` examples in all, each non-empty, the page's values.
  ;; Then as textValues (no "Example" to refuse): the citing pairs' count, or -1.
  (global $rowsSeen (export "rowsSeen") (mut i32) (i32.const 0))
  (func (export "exampleValues") (param $len i32) (param $n i32) (param $repAt i32) (param $defAt i32) (param $present i32) (param $endsOut i32) (param $gatesOut i32) (param $citingOut i32) (result i32)
    (local $i i32) (local $r i32) (local $d i32) (local $previous i32) (local $rows i32) (local $values i32)
    (if (i32.eqz (call $fit (local.get $len) (local.get $present))) (then (return (i32.const -1))))
    (block $no
      (loop $levels
        (if (i32.lt_u (local.get $i) (local.get $n))
          (then
            (local.set $r (i32.load (i32.add (local.get $repAt) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $d (i32.load (i32.add (local.get $defAt) (i32.shl (local.get $i) (i32.const 2)))))
            (if (i32.eqz (local.get $r))
              (then
                (br_if $no (i32.and (i32.ne (local.get $d) (i32.const 1)) (i32.ne (local.get $d) (i32.const 3))))
                (local.set $rows (i32.add (local.get $rows) (i32.const 1))))
              (else
                (br_if $no (i32.ne (local.get $r) (i32.const 1)))
                (br_if $no (i32.eqz (local.get $i)))
                (br_if $no (i32.ne (local.get $previous) (i32.const 3)))
                (br_if $no (i32.ne (local.get $d) (i32.const 3)))))
            (local.set $previous (local.get $d))
            (if (i32.eq (local.get $d) (i32.const 3)) (then (local.set $values (i32.add (local.get $values) (i32.const 1)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $levels))))
      (br_if $no (i32.ne (local.get $values) (local.get $present)))
      (global.set $rowsSeen (local.get $rows))
      (return (call $values (local.get $len) (local.get $present) (local.get $endsOut) (local.get $gatesOut) (local.get $citingOut) (i32.const 0))))
    (i32.const -1))

  ;; The `count` values of a page that they fit, each non-empty (and with `noExample`, not starting
  ;; "Example"), their lengths made spaces, their gates and citing pairs found: see textValues.
  (func $values (param $len i32) (param $count i32) (param $endsOut i32) (param $gatesOut i32) (param $citingOut i32) (param $noExample i32) (result i32)
    (local $at i32) (local $i i32) (local $from i32) (local $to i32) (local $n i32)
    (local $gates i32) (local $g i32) (local $gate i32) (local $v i32) (local $cited i32) (local $pairs i32)
    (block $no
      (loop $values
        (if (i32.lt_u (local.get $i) (local.get $count))
          (then
            (local.set $n (i32.load (local.get $at)))
            (local.set $from (i32.add (local.get $at) (i32.const 4)))
            (local.set $to (i32.add (local.get $from) (local.get $n)))
            (br_if $no (i32.eqz (local.get $n)))
            ;; "Example" (7 bytes): the first four as a word, then three.
            (if (i32.and (local.get $noExample) (i32.ge_u (local.get $n) (i32.const 7)))
              (then (br_if $no (i32.and
                (i32.eq (i32.load (local.get $from)) (i32.const 0x6d617845))
                (i32.and (i32.eq (i32.load16_u offset=4 (local.get $from)) (i32.const 0x6c70))
                  (i32.eq (i32.load8_u offset=6 (local.get $from)) (i32.const 0x65)))))))
            (i32.store (local.get $at) (i32.const 0x20202020))
            (i32.store (i32.add (local.get $endsOut) (i32.shl (local.get $i) (i32.const 2))) (local.get $to))
            (local.set $at (local.get $to))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $values))))
      (global.set $valuesEnd (local.get $at))
      (v128.store (local.get $len) (i8x16.splat (i32.const 0x41)))
      (local.set $gates (call $scan (local.get $len) (local.get $gatesOut) (i32.const 0) (i32.const 0) (i32.const 0)))
      (global.set $gateCount (local.get $gates))
      ;; Each gate's value (gates and values both in order); a value given once.
      (local.set $cited (i32.const -1))
      (block $merged
        (loop $eachGate
          (br_if $merged (i32.ge_u (local.get $g) (local.get $gates)))
          (local.set $gate (i32.load (i32.add (local.get $gatesOut) (i32.shl (local.get $g) (i32.const 2)))))
          (local.set $g (i32.add (local.get $g) (i32.const 1)))
          (block $found
            (loop $advance
              (br_if $merged (i32.ge_u (local.get $v) (local.get $count)))
              (br_if $found (i32.gt_u (i32.load (i32.add (local.get $endsOut) (i32.shl (local.get $v) (i32.const 2)))) (local.get $gate)))
              (local.set $v (i32.add (local.get $v) (i32.const 1)))
              (br $advance)))
          (br_if $eachGate (i32.eq (local.get $v) (local.get $cited)))
          (local.set $from (i32.add (i32.const 4)
            (if (result i32) (local.get $v)
              (then (i32.load (i32.add (local.get $endsOut) (i32.shl (i32.sub (local.get $v) (i32.const 1)) (i32.const 2)))))
              (else (i32.const 0)))))
          ;; (A gate in the length before a value, now a space, has no keyword from `from` on.)
          (br_if $eachGate (i32.eqz (call $keywordBefore (local.get $from) (local.get $gate))))
          (local.set $cited (local.get $v))
          (i32.store (i32.add (local.get $citingOut) (i32.shl (local.get $pairs) (i32.const 3))) (local.get $from))
          (i32.store offset=4 (i32.add (local.get $citingOut) (i32.shl (local.get $pairs) (i32.const 3)))
            (i32.load (i32.add (local.get $endsOut) (i32.shl (local.get $v) (i32.const 2)))))
          (local.set $pairs (i32.add (local.get $pairs) (i32.const 1)))
          (br $eachGate)))
      (return (local.get $pairs)))
    (i32.const -1))

  ;; int64sToNumbers: `count` little-endian INT64s at 0, as f64 at `out`: each its value when a safe
  ;; integer (|v| < 2^53), else NaN (int64sInto's numbers).
  (func (export "int64sToNumbers") (param $count i32) (param $out i32)
    (local $i i32) (local $v i64)
    (block $done
      (loop $values
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $v (i64.load (i32.shl (local.get $i) (i32.const 3))))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3)))
          (select
            (f64.convert_i64_s (local.get $v))
            (f64.const nan)
            (i64.le_u (i64.add (local.get $v) (i64.const 0x1fffffffffffff)) (i64.const 0x3ffffffffffffe))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $values))))

  ;; hybridLevels: `n` levels of `width` bits (1 or 2) from the RLE/bit-packed hybrid at at..end, as
  ;; hyparquet's readRleBitPackedHybrid reads them, into i32s at `out`: 1. 0 where that reader
  ;; could read otherwise or fail (the caller then uses it): a header of more than four bytes, a
  ;; bit-packed run of no groups (it reads a byte all the same), a run past `end`, or an RLE run
  ;; past `n` (it lengthens its array). Bit-packed values past `n` are dropped, as it drops them.
  (func (export "hybridLevels") (param $at i32) (param $end i32) (param $width i32) (param $out i32) (param $n i32) (result i32)
    (local $seen i32) (local $h i32) (local $b i32) (local $shift i32) (local $count i32)
    (local $k i32) (local $bit i32) (local $v i32) (local $mask i32)
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $width)) (i32.const 1)))
    (block $refuse
      (loop $runs
        (if (i32.ge_u (local.get $seen) (local.get $n)) (then (return (i32.const 1))))
        ;; The run's header, a varint of at most four bytes.
        (local.set $h (i32.const 0))
        (local.set $shift (i32.const 0))
        (block $header
          (loop $bytes
            (br_if $refuse (i32.ge_u (local.get $at) (local.get $end)))
            (local.set $b (i32.load8_u (local.get $at)))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $h (i32.or (local.get $h) (i32.shl (i32.and (local.get $b) (i32.const 0x7f)) (local.get $shift))))
            (br_if $header (i32.lt_u (local.get $b) (i32.const 0x80)))
            (local.set $shift (i32.add (local.get $shift) (i32.const 7)))
            (br_if $refuse (i32.gt_u (local.get $shift) (i32.const 21)))
            (br $bytes)))
        (local.set $count (i32.shr_u (local.get $h) (i32.const 1)))
        (if (i32.and (local.get $h) (i32.const 1))
          (then
            ;; Bit-packed: `count` groups of eight values, `width` bytes a group; no value straddles a byte.
            (br_if $refuse (i32.eqz (local.get $count)))
            (br_if $refuse (i32.gt_u (i32.mul (local.get $count) (local.get $width)) (i32.sub (local.get $end) (local.get $at))))
            (local.set $k (i32.const 0))
            (block $packed
              (loop $values
                (br_if $packed (i32.ge_u (local.get $k) (i32.shl (local.get $count) (i32.const 3))))
                (br_if $packed (i32.ge_u (local.get $seen) (local.get $n)))
                (local.set $bit (i32.mul (local.get $k) (local.get $width)))
                (i32.store (i32.add (local.get $out) (i32.shl (local.get $seen) (i32.const 2)))
                  (i32.and
                    (i32.shr_u (i32.load8_u (i32.add (local.get $at) (i32.shr_u (local.get $bit) (i32.const 3)))) (i32.and (local.get $bit) (i32.const 7)))
                    (local.get $mask)))
                (local.set $seen (i32.add (local.get $seen) (i32.const 1)))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $values)))
            (local.set $at (i32.add (local.get $at) (i32.mul (local.get $count) (local.get $width)))))
          (else
            ;; RLE: one byte of value, repeated `count` times.
            (br_if $refuse (i32.ge_u (local.get $at) (local.get $end)))
            (local.set $v (i32.load8_u (local.get $at)))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (br_if $refuse (i32.gt_u (local.get $count) (i32.sub (local.get $n) (local.get $seen))))
            (block $filled
              (loop $fill
                (br_if $filled (i32.eqz (local.get $count)))
                (i32.store (i32.add (local.get $out) (i32.shl (local.get $seen) (i32.const 2))) (local.get $v))
                (local.set $seen (i32.add (local.get $seen) (i32.const 1)))
                (local.set $count (i32.sub (local.get $count) (i32.const 1)))
                (br $fill)))))
        (br $runs)))
    (i32.const 0))
)