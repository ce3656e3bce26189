;; The cell walk (CellMap.record) as WebAssembly: the one pass that looks at every byte of the
;; file. Compiled to bytes at build time (esbuild.mjs, with wabt's wat2wasm) and instantiated by
;; cellWalkWasm.ts. It follows cells.ts to the letter: a quote opens a quoted cell only at the
;; cell's start; inside it `""` is a quote; a quote, optional spaces or tabs, then a comma or the
;; row's end closes it; any other quote is a character. A property test runs both walkers on
;; random rows (test/unit/tableCellWalk.test.ts).
;;
;; Memory (imported, owned by cellWalkWasm.ts): [marks, 64 KiB][scan state and row ends, 64 KiB]
;; [seekNumbers' mantissas, 128 KiB][its kinds, 16 KiB][read buffers][16 bytes of slack for the last SIMD load].
;; The walk functions take a row [start, end) as memory offsets and write marks as i32 at
;; marks[k] = start of cell (k << shift) − start, or 0xFFFFFFFF for slots past the row's last
;; cell; they return the row's cell count. shift 5 marks every 32nd cell (wide files); shift 0
;; marks every cell (files of few columns). `countRows` checks the cell counts of many rows.
;; `scan` finds where rows end (rowScanner.ts).
(module
  (import "env" "memory" (memory 1))

  ;; Any row: a byte loop, with the quote rules.
  (func $walk (export "walk") (param $start i32) (param $end i32) (param $slots i32) (param $shift i32) (result i32)
    (local $p i32) (local $cell i32) (local $i i32) (local $j i32) (local $b i32) (local $k i32) (local $mask i32)
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $shift)) (i32.const 1)))
    (local.set $p (local.get $start))
    (block $row
      (loop $next_cell
        ;; Mark the cell when its index is a multiple of 1 << shift and its slot is wanted.
        (if (i32.eqz (i32.and (local.get $cell) (local.get $mask)))
          (then
            (local.set $k (i32.shr_u (local.get $cell) (local.get $shift)))
            (if (i32.lt_u (local.get $k) (local.get $slots))
              (then (i32.store (i32.shl (local.get $k) (i32.const 2)) (i32.sub (local.get $p) (local.get $start)))))))
        ;; Leave $delimiter with $p at the comma after the cell, or at $end.
        (block $delimiter
          (if (i32.lt_u (local.get $p) (local.get $end))
            (then
              (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 34)) ;; a quoted cell
                (then
                  (local.set $i (i32.add (local.get $p) (i32.const 1)))
                  (loop $quoted
                    ;; The next quote at or after $i; none before $end: the rest of the row is the cell.
                    (block $found
                      (loop $scan
                        (if (i32.ge_u (local.get $i) (local.get $end))
                          (then (local.set $p (local.get $end)) (br $delimiter)))
                        ;; 16 bytes at a time while a whole block is left (long quoted cells).
                        (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $end))
                          (then
                            (local.set $b (i8x16.bitmask (i8x16.eq (v128.load (local.get $i)) (i8x16.splat (i32.const 34)))))
                            (if (i32.eqz (local.get $b))
                              (then (local.set $i (i32.add (local.get $i) (i32.const 16))) (br $scan)))
                            (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $b))))
                            (br $found)))
                        (br_if $found (i32.eq (i32.load8_u (local.get $i)) (i32.const 34)))
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br $scan)))
                    ;; "" is a quote inside the cell.
                    (local.set $j (i32.add (local.get $i) (i32.const 1)))
                    (if (i32.lt_u (local.get $j) (local.get $end))
                      (then
                        (if (i32.eq (i32.load8_u (local.get $j)) (i32.const 34))
                          (then (local.set $i (i32.add (local.get $j) (i32.const 1))) (br $quoted)))))
                    ;; Spaces or tabs, then a comma or the row's end: the cell is closed.
                    (block $spaces
                      (loop $space
                        (br_if $spaces (i32.ge_u (local.get $j) (local.get $end)))
                        (local.set $b (i32.load8_u (local.get $j)))
                        (br_if $spaces (i32.eqz (i32.or (i32.eq (local.get $b) (i32.const 32)) (i32.eq (local.get $b) (i32.const 9)))))
                        (local.set $j (i32.add (local.get $j) (i32.const 1)))
                        (br $space)))
                    (if (i32.ge_u (local.get $j) (local.get $end))
                      (then (local.set $p (local.get $end)) (br $delimiter)))
                    (if (i32.eq (i32.load8_u (local.get $j)) (i32.const 44))
                      (then (local.set $p (local.get $j)) (br $delimiter)))
                    ;; Any other quote is a character: search on after it.
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $quoted))))))
          ;; An unquoted cell runs to the next comma.
          (block $plain
            (loop $byte
              (br_if $plain (i32.ge_u (local.get $p) (local.get $end)))
              (br_if $plain (i32.eq (i32.load8_u (local.get $p)) (i32.const 44)))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $byte))))
        (br_if $row (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $cell (i32.add (local.get $cell) (i32.const 1)))
        (br $next_cell)))
    (call $fill (i32.add (i32.shr_u (local.get $cell) (local.get $shift)) (i32.const 1)) (local.get $slots))
    (i32.add (local.get $cell) (i32.const 1)))

  ;; Where cell $index of the row [start, end) starts (a memory offset), or -1 when the row has
  ;; fewer cells: $walk's loop, stopped at that cell (a sort's pass over a column the map does not hold yet),
  ;; with unquoted cells gone through 16 bytes at a time: byte by byte, a 640-column wallet file's
  ;; sort column (its 27th cell, ~390 bytes into each row) cost the pass ~120 ms of the worker's CPU (issue 34).
  (func $seek (param $start i32) (param $end i32) (param $index i32) (result i32)
    (local $p i32) (local $cell i32) (local $i i32) (local $j i32) (local $b i32)
    (local $v v128) (local $c i32) (local $q i32) (local $k i32) (local $need i32)
    (local.set $p (local.get $start))
    (block $row
      (loop $next_cell
        (if (i32.eq (local.get $cell) (local.get $index)) (then (return (local.get $p))))
        ;; Leave $delimiter with $p at the comma after the cell, or at $end.
        (block $delimiter
          (if (i32.lt_u (local.get $p) (local.get $end))
            (then
              (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 34)) ;; a quoted cell
                (then
                  (local.set $i (i32.add (local.get $p) (i32.const 1)))
                  (loop $quoted
                    ;; The next quote at or after $i; none before $end: the rest of the row is the cell.
                    (block $found
                      (loop $scan
                        (if (i32.ge_u (local.get $i) (local.get $end))
                          (then (local.set $p (local.get $end)) (br $delimiter)))
                        ;; 16 bytes at a time while a whole block is left (long quoted cells).
                        (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $end))
                          (then
                            (local.set $b (i8x16.bitmask (i8x16.eq (v128.load (local.get $i)) (i8x16.splat (i32.const 34)))))
                            (if (i32.eqz (local.get $b))
                              (then (local.set $i (i32.add (local.get $i) (i32.const 16))) (br $scan)))
                            (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $b))))
                            (br $found)))
                        (br_if $found (i32.eq (i32.load8_u (local.get $i)) (i32.const 34)))
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br $scan)))
                    ;; "" is a quote inside the cell.
                    (local.set $j (i32.add (local.get $i) (i32.const 1)))
                    (if (i32.lt_u (local.get $j) (local.get $end))
                      (then
                        (if (i32.eq (i32.load8_u (local.get $j)) (i32.const 34))
                          (then (local.set $i (i32.add (local.get $j) (i32.const 1))) (br $quoted)))))
                    ;; Spaces or tabs, then a comma or the row's end: the cell is closed.
                    (block $spaces
                      (loop $space
                        (br_if $spaces (i32.ge_u (local.get $j) (local.get $end)))
                        (local.set $b (i32.load8_u (local.get $j)))
                        (br_if $spaces (i32.eqz (i32.or (i32.eq (local.get $b) (i32.const 32)) (i32.eq (local.get $b) (i32.const 9)))))
                        (local.set $j (i32.add (local.get $j) (i32.const 1)))
                        (br $space)))
                    (if (i32.ge_u (local.get $j) (local.get $end))
                      (then (local.set $p (local.get $end)) (br $delimiter)))
                    (if (i32.eq (i32.load8_u (local.get $j)) (i32.const 44))
                      (then (local.set $p (local.get $j)) (br $delimiter)))
                    ;; Any other quote is a character: search on after it.
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $quoted))))))
          ;; An unquoted cell runs to the next comma: 16 bytes at a time, and every cell that ends
          ;; in the block at once while the block holds no quote (a quote may open the next cell:
          ;; the cells before it are counted, and the cell loop looks at it).
          (block $plain
            (loop $block16
              (br_if $plain (i32.ge_u (local.get $p) (local.get $end)))
              (local.set $v (v128.load (local.get $p)))
              (local.set $c (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 44)))))
              (local.set $q (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))))
              ;; The last block of the row: drop the bits past its end.
              (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16))
                (then
                  (local.set $b (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1)))
                  (local.set $c (i32.and (local.get $c) (local.get $b)))
                  (local.set $q (i32.and (local.get $q) (local.get $b)))))
              ;; Only the commas before the block's first quote.
              (if (local.get $q)
                (then (local.set $c (i32.and (local.get $c) (i32.sub (i32.and (local.get $q) (i32.sub (i32.const 0) (local.get $q))) (i32.const 1))))))
              (local.set $k (i32.popcnt (local.get $c)))
              (local.set $need (i32.sub (local.get $index) (local.get $cell)))
              (if (i32.ge_u (local.get $k) (local.get $need))
                (then
                  ;; The wanted cell starts after the block's $need-th comma.
                  (block $nth
                    (loop $drop
                      (br_if $nth (i32.le_u (local.get $need) (i32.const 1)))
                      (local.set $c (i32.and (local.get $c) (i32.sub (local.get $c) (i32.const 1))))
                      (local.set $need (i32.sub (local.get $need) (i32.const 1)))
                      (br $drop)))
                  (return (i32.add (i32.add (local.get $p) (i32.ctz (local.get $c))) (i32.const 1)))))
              (if (local.get $k)
                (then
                  ;; Cells end in the block, not the wanted one's: on from after the last comma.
                  (local.set $cell (i32.add (local.get $cell) (local.get $k)))
                  (local.set $p (i32.add (local.get $p) (i32.sub (i32.const 32) (i32.clz (local.get $c)))))
                  (br $next_cell)))
              ;; No comma before the quote: it is a character of this unquoted cell.
              (if (local.get $q)
                (then
                  (local.set $p (i32.add (i32.add (local.get $p) (i32.ctz (local.get $q))) (i32.const 1)))
                  (br $block16)))
              (local.set $p (i32.add (local.get $p) (i32.const 16)))
              (br $block16))))
        (br_if $row (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $cell (i32.add (local.get $cell) (i32.const 1)))
        (br $next_cell)))
    (i32.const -1))

  ;; Cell $index of each of $n rows, in one call: row k runs from $base plus the i32 at $starts + 4k
  ;; to $base plus the one after it, its line ending left out (as countRows); the i32 at $starts + 4k
  ;; becomes where its cell starts, as an offset from $base, or -1 when the row has fewer cells.
  (func (export "seekRows") (param $starts i32) (param $n i32) (param $index i32) (param $base i32)
    (local $k i32) (local $start i32) (local $end i32) (local $b i32) (local $at i32)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $start (i32.add (local.get $base) (i32.load (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))))
        (local.set $end (i32.add (local.get $base) (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))))
        (block $trimmed
          (loop $trim
            (br_if $trimmed (i32.le_u (local.get $end) (local.get $start)))
            (local.set $b (i32.load8_u (i32.sub (local.get $end) (i32.const 1))))
            (br_if $trimmed (i32.and (i32.ne (local.get $b) (i32.const 10)) (i32.ne (local.get $b) (i32.const 13))))
            (local.set $end (i32.sub (local.get $end) (i32.const 1)))
            (br $trim)))
        (local.set $at (call $seek (local.get $start) (local.get $end) (local.get $index)))
        (i32.store (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2)))
          (select (i32.const -1) (i32.sub (local.get $at) (local.get $base)) (i32.eq (local.get $at) (i32.const -1))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row))))

  ;; seekRows, and what cell $index holds in each row, read as scanNumber reads it, so a pass types
  ;; most cells of a column of numbers with no call per cell from JS (the 1,000,000-row quoted
  ;; file's sort column: spanning, reading and trimming each cell in JS was ~300 ms of a ~420 ms
  ;; pass, issue 34.2). Besides the i32 at $starts + 4k (as seekRows), the byte at $kinds + k:
  ;; 0 an empty cell (or none: the row has fewer cells); 1 + p a plain decimal of 1 to 15 digits
  ;; with p places after the point, its signed mantissa the f64 at $mantissas + 8k (−0 for "-0");
  ;; 255 anything else (text, an exponent, more digits, a doubled quote, spaces), which JS reads.
  ;; A quoted cell holds the number when its closing quote (spaces or tabs, then a comma or the
  ;; row's end after it) comes right after the digits, as spanCell spans it; the kernel stops at
  ;; the first byte that is not part of a number, so a text cell costs a byte or two.
  (func (export "seekNumbers") (param $starts i32) (param $n i32) (param $index i32) (param $base i32) (param $mantissas i32) (param $kinds i32)
    (local $k i32) (local $start i32) (local $end i32) (local $b i32) (local $at i32)
    (local $from i32) (local $i i32) (local $j i32) (local $w i32) (local $minus i32)
    (local $digits i32) (local $places i32) (local $m i64) (local $kind i32) (local $quoted i32)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $start (i32.add (local.get $base) (i32.load (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))))
        (local.set $end (i32.add (local.get $base) (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))))
        (block $trimmed
          (loop $trim
            (br_if $trimmed (i32.le_u (local.get $end) (local.get $start)))
            (local.set $b (i32.load8_u (i32.sub (local.get $end) (i32.const 1))))
            (br_if $trimmed (i32.and (i32.ne (local.get $b) (i32.const 10)) (i32.ne (local.get $b) (i32.const 13))))
            (local.set $end (i32.sub (local.get $end) (i32.const 1)))
            (br $trim)))
        (local.set $at (call $seek (local.get $start) (local.get $end) (local.get $index)))
        (i32.store (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2)))
          (select (i32.const -1) (i32.sub (local.get $at) (local.get $base)) (i32.eq (local.get $at) (i32.const -1))))
        (local.set $kind (i32.const 0))
        (block $read
          (br_if $read (i32.eq (local.get $at) (i32.const -1)))
          (local.set $kind (i32.const 255))
          ;; A quoted cell's text starts after its quote.
          (local.set $quoted (i32.and (i32.lt_u (local.get $at) (local.get $end)) (i32.eq (i32.load8_u (local.get $at)) (i32.const 34))))
          (local.set $from (i32.add (local.get $at) (local.get $quoted)))
          (local.set $i (local.get $from))
          ;; A sign, then digits, then a dot and digits.
          (local.set $minus (i32.const 0))
          (if (i32.lt_u (local.get $i) (local.get $end))
            (then
              (local.set $b (i32.load8_u (local.get $i)))
              (if (i32.eq (local.get $b) (i32.const 45))
                (then (local.set $minus (i32.const 1)) (local.set $i (i32.add (local.get $i) (i32.const 1))))
                (else (if (i32.eq (local.get $b) (i32.const 43)) (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))))
          (local.set $m (i64.const 0))
          (local.set $w (local.get $i))
          (block $whole_done
            (loop $whole
              (br_if $whole_done (i32.ge_u (local.get $i) (local.get $end)))
              (local.set $b (i32.sub (i32.load8_u (local.get $i)) (i32.const 48)))
              (br_if $whole_done (i32.gt_u (local.get $b) (i32.const 9)))
              (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $b))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $whole)))
          (local.set $digits (i32.sub (local.get $i) (local.get $w)))
          (local.set $places (i32.const 0))
          (if (i32.lt_u (local.get $i) (local.get $end))
            (then
              (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 46))
                (then
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (local.set $w (local.get $i))
                  (block $fraction_done
                    (loop $fraction
                      (br_if $fraction_done (i32.ge_u (local.get $i) (local.get $end)))
                      (local.set $b (i32.sub (i32.load8_u (local.get $i)) (i32.const 48)))
                      (br_if $fraction_done (i32.gt_u (local.get $b) (i32.const 9)))
                      (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $b))))
                      (local.set $i (i32.add (local.get $i) (i32.const 1)))
                      (br $fraction)))
                  (local.set $places (i32.sub (local.get $i) (local.get $w)))
                  (local.set $digits (i32.add (local.get $digits) (local.get $places)))))))
          ;; Where the cell's text must end for the bytes read to be all of it: at the row's end;
          ;; else, unquoted, at a comma; quoted, at a quote that closes the cell (not a doubled one).
          (if (i32.lt_u (local.get $i) (local.get $end))
            (then
              (local.set $b (i32.load8_u (local.get $i)))
              (if (local.get $quoted)
                (then
                  ;; (A doubled quote fails below: a quote is neither a space nor a comma.)
                  (br_if $read (i32.ne (local.get $b) (i32.const 34)))
                  (local.set $j (i32.add (local.get $i) (i32.const 1)))
                  (block $spaces
                    (loop $space
                      (br_if $spaces (i32.ge_u (local.get $j) (local.get $end)))
                      (local.set $b (i32.load8_u (local.get $j)))
                      (br_if $spaces (i32.eqz (i32.or (i32.eq (local.get $b) (i32.const 32)) (i32.eq (local.get $b) (i32.const 9)))))
                      (local.set $j (i32.add (local.get $j) (i32.const 1)))
                      (br $space)))
                  (if (i32.lt_u (local.get $j) (local.get $end))
                    (then (br_if $read (i32.ne (i32.load8_u (local.get $j)) (i32.const 44))))))
                (else (br_if $read (i32.ne (local.get $b) (i32.const 44)))))))
          ;; The whole text read: empty, a decimal of 1 to 15 digits, or (a lone sign or dot, more digits) for JS.
          (if (i32.eq (local.get $i) (local.get $from))
            (then (local.set $kind (i32.const 0)) (br $read)))
          (br_if $read (i32.or (i32.eqz (local.get $digits)) (i32.gt_u (local.get $digits) (i32.const 15))))
          (local.set $kind (i32.add (local.get $places) (i32.const 1)))
          (f64.store (i32.add (local.get $mantissas) (i32.shl (local.get $k) (i32.const 3)))
            (select
              (f64.neg (f64.convert_i64_u (local.get $m)))
              (f64.convert_i64_u (local.get $m))
              (local.get $minus))))
        (i32.store8 (i32.add (local.get $kinds) (local.get $k)) (local.get $kind))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row))))

  ;; A row with no quote in it: the commas of 16 bytes at once (SIMD), so there is no branch per
  ;; byte or per cell to mispredict; commas are gone through one by one only in a block where a mark falls.
  (func $walkPlain (export "walkPlain") (param $start i32) (param $end i32) (param $slots i32) (param $shift i32) (result i32)
    (local $bits i32) (local $n i32) (local $next i32) (local $p i32) (local $commas i32) (local $k i32) (local $step i32)
    (local.set $step (i32.shl (i32.const 1) (local.get $shift)))
    (if (local.get $slots) (then (i32.store (i32.const 0) (i32.const 0)))) ;; cell 0 starts at the start
    (local.set $p (local.get $start))
    (local.set $next (local.get $step)) ;; the comma count at which the next mark falls
    (block $row
      (loop $block16
        (br_if $row (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (i8x16.splat (i32.const 44)))))
        ;; The last block of the row: drop the bits past its end.
        (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16))
          (then
            (local.set $bits (i32.and (local.get $bits)
              (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1))))))
        (local.set $n (i32.popcnt (local.get $bits)))
        (if (i32.ge_u (i32.add (local.get $commas) (local.get $n)) (local.get $next))
          (then
            (block $bits_done
              (loop $each_comma
                (br_if $bits_done (i32.eqz (local.get $bits)))
                (local.set $commas (i32.add (local.get $commas) (i32.const 1)))
                (if (i32.eq (local.get $commas) (local.get $next))
                  (then
                    (local.set $k (i32.shr_u (local.get $commas) (local.get $shift)))
                    (if (i32.lt_u (local.get $k) (local.get $slots))
                      (then
                        (i32.store (i32.shl (local.get $k) (i32.const 2))
                          (i32.sub (i32.add (i32.add (local.get $p) (i32.ctz (local.get $bits))) (i32.const 1)) (local.get $start)))))
                    (local.set $next (i32.add (local.get $next) (local.get $step)))))
                (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                (br $each_comma))))
          (else (local.set $commas (i32.add (local.get $commas) (local.get $n)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $block16)))
    (call $fill (i32.add (i32.shr_u (local.get $commas) (local.get $shift)) (i32.const 1)) (local.get $slots))
    (i32.add (local.get $commas) (i32.const 1)))

  ;; The head's rows at open, in one call: returns the first of $n rows whose cell count is not
  ;; $expected (its count then stored at 0), or -1. Row k runs from $base plus the i32 at
  ;; $starts + 4k to $base plus the one after it, its line ending (the CR and LF bytes at its end)
  ;; left out, as rowEnd() does in cells.ts's callers. A row with no quote takes walkPlain.
  (func (export "countRows") (param $starts i32) (param $n i32) (param $expected i32) (param $base i32) (result i32)
    (local $k i32) (local $start i32) (local $end i32) (local $p i32) (local $b i32) (local $quoted i32) (local $count i32)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $start (i32.add (local.get $base) (i32.load (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))))
        (local.set $end (i32.add (local.get $base) (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))))
        ;; Leave out the line ending.
        (block $trimmed
          (loop $trim
            (br_if $trimmed (i32.le_u (local.get $end) (local.get $start)))
            (local.set $b (i32.load8_u (i32.sub (local.get $end) (i32.const 1))))
            (br_if $trimmed (i32.and (i32.ne (local.get $b) (i32.const 10)) (i32.ne (local.get $b) (i32.const 13))))
            (local.set $end (i32.sub (local.get $end) (i32.const 1)))
            (br $trim)))
        ;; Any quote in the row, 16 bytes at a time (the last block masked to the row).
        (local.set $quoted (i32.const 0))
        (local.set $p (local.get $start))
        (block $scanned
          (loop $block16
            (br_if $scanned (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $b (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (i8x16.splat (i32.const 34)))))
            (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16))
              (then
                (local.set $b (i32.and (local.get $b)
                  (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1))))))
            (if (local.get $b) (then (local.set $quoted (i32.const 1)) (br $scanned)))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br $block16)))
        (if (local.get $quoted)
          (then (local.set $count (call $walk (local.get $start) (local.get $end) (i32.const 0) (i32.const 0))))
          (else (local.set $count (call $walkPlain (local.get $start) (local.get $end) (i32.const 0) (i32.const 0)))))
        (if (i32.ne (local.get $count) (local.get $expected))
          (then
            (i32.store (i32.const 0) (local.get $count))
            (return (local.get $k))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row)))
    (i32.const -1))

  ;; Slots [from, slots): past the row's last cell.
  (func $fill (param $k i32) (param $slots i32)
    (block $done
      (loop $slot
        (br_if $done (i32.ge_u (local.get $k) (local.get $slots)))
        (i32.store (i32.shl (local.get $k) (i32.const 2)) (i32.const -1))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $slot))))

  ;; ---------------------------------------------------------------------------------------------
  ;; scan: the row scanner's state machine (rowScanner.ts, papaparse's quote rules) over bytes
  ;; [start, end), 16 bytes at a time where nothing happens. States: 0 outside a quoted cell,
  ;; 1 inside one, 2 just after a quote inside one, 3 after such a quote and spaces, 4 after such
  ;; a quote (and spaces) and a CR. Outside quoted cells a line feed ends a row, and a quote opens
  ;; a quoted cell only at a cell's start (after a line feed or a comma; `prev` is the byte before
  ;; `start`). Results at 65536 (i32 each): +0 state, +4 line feeds seen, +8 row ends written,
  ;; +12 malformed quotes, +16 the first one's place (or -1), +20 the last quote that opened a
  ;; cell (or -1). Row ends from 65600, 8 bytes each: the line feed's place, and the line feeds
  ;; seen before it. Returns where it stopped: at `end`, past 8,100 row ends written, or just
  ;; after the first malformed quote when `stop_on_malformed` (the caller places it in its row).

  (func $malformed (param $at i32)
    (if (i32.eqz (i32.load (i32.const 65548)))
      (then (i32.store (i32.const 65552) (local.get $at))))
    (i32.store (i32.const 65548) (i32.add (i32.load (i32.const 65548)) (i32.const 1))))

  (func (export "scan") (param $start i32) (param $end i32) (param $state i32) (param $prev i32) (param $stop_on_malformed i32) (result i32)
    (local $p i32) (local $b i32) (local $nl i32) (local $rows i32) (local $v v128) (local $quotes i32) (local $lfs i32) (local $q i32)
    (local $dense i32) (local $from i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128) (local $b64 i32) (local $b65 i32) (local $bit i32)
    ;; 64-bit masks of the fast path: quotes, line feeds, commas, CRs, inside, opens, closes, separator before, ok after, bad, ends.
    (local $qm i64) (local $lm i64) (local $cm i64) (local $crm i64) (local $im i64) (local $om i64) (local $xm i64)
    (local $sm i64) (local $am i64) (local $bad i64) (local $em i64)
    (local.set $dense (i32.const 1))
    (i32.store (i32.const 65548) (i32.const 0))
    (i32.store (i32.const 65552) (i32.const -1))
    (i32.store (i32.const 65556) (i32.const -1))
    (local.set $p (local.get $start))
    (block $done
      (loop $main
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ;; The fast path, only tried in dense text ($dense: the last skip to a quote or line feed was
        ;; short): 64 bytes at once by quote parity (the simdcsv idea). The quotes seen so far, odd
        ;; or even, say whether a byte is inside a quoted cell, with no branch per byte. That holds
        ;; only where the rules agree with parity, so the block is checked first: every quote that
        ;; opens a cell follows a comma, a line feed or a closing quote (an escaped ""), and every
        ;; quote that closes one is followed by a comma, a line feed, CR LF or a quote (not across the
        ;; block's end: the state machine takes an escaped "" there). A block that fails the check
        ;; goes to the state machine below. Needs bytes up to $p + 66 and state 0 or 1.
        ;; Each kind of byte is compared once, as a 64-bit mask (bit i: byte $p + i); the bytes
        ;; before and after a byte are the masks shifted by one, with the bytes at $p − 1, $p + 64
        ;; and $p + 65 put in by hand.
        (block $slow
          (br_if $slow (i32.eqz (i32.and (i32.and (local.get $dense) (i32.le_u (local.get $state) (i32.const 1)))
            (i32.le_u (i32.add (local.get $p) (i32.const 66)) (local.get $end)))))
          (local.set $v0 (v128.load (local.get $p)))
          (local.set $v1 (v128.load offset=16 (local.get $p)))
          (local.set $v2 (v128.load offset=32 (local.get $p)))
          (local.set $v3 (v128.load offset=48 (local.get $p)))
          (local.set $qm (i64.or (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (i8x16.splat (i32.const 34)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 34)))) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 34)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (i8x16.splat (i32.const 34)))) (i32.const 16)))) (i64.const 32))))
          (local.set $lm (i64.or (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (i8x16.splat (i32.const 10)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 10)))) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 10)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (i8x16.splat (i32.const 10)))) (i32.const 16)))) (i64.const 32))))
          (local.set $cm (i64.or (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (i8x16.splat (i32.const 44)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 44)))) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 44)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (i8x16.splat (i32.const 44)))) (i32.const 16)))) (i64.const 32))))
          (local.set $b64 (i32.load8_u offset=64 (local.get $p)))
          (local.set $b65 (i32.load8_u offset=65 (local.get $p)))
          ;; The byte before the block; at $start it is not in this call's range: `prev` stands for it.
          (local.set $b (local.get $prev))
          (if (i32.gt_u (local.get $p) (local.get $start))
            (then (local.set $b (i32.load8_u (i32.sub (local.get $p) (i32.const 1))))))
          ;; Inside after each byte (a quote counts itself): prefix xor of the quote bits.
          (local.set $im (local.get $qm))
          (local.set $im (i64.xor (local.get $im) (i64.shl (local.get $im) (i64.const 1))))
          (local.set $im (i64.xor (local.get $im) (i64.shl (local.get $im) (i64.const 2))))
          (local.set $im (i64.xor (local.get $im) (i64.shl (local.get $im) (i64.const 4))))
          (local.set $im (i64.xor (local.get $im) (i64.shl (local.get $im) (i64.const 8))))
          (local.set $im (i64.xor (local.get $im) (i64.shl (local.get $im) (i64.const 16))))
          (local.set $im (i64.xor (local.get $im) (i64.shl (local.get $im) (i64.const 32))))
          (local.set $im (i64.xor (local.get $im) (i64.sub (i64.const 0) (i64.extend_i32_u (local.get $state)))))
          ;; A quote opens where the parity before it was even, and closes where it was odd.
          (local.set $om (i64.and (local.get $qm) (local.get $im)))
          (local.set $xm (i64.and (local.get $qm) (i64.xor (local.get $im) (i64.const -1))))
          (local.set $sm (i64.or
            (i64.shl (i64.or (local.get $cm) (local.get $lm)) (i64.const 1))
            (i64.extend_i32_u (i32.or (i32.eq (local.get $b) (i32.const 44)) (i32.eq (local.get $b) (i32.const 10))))))
          ;; After each byte: a comma, a line feed or a quote (CR then LF is looked at only when needed).
          (local.set $am (i64.or (i64.or
            (i64.or (i64.shr_u (local.get $cm) (i64.const 1)) (i64.shl (i64.extend_i32_u (i32.eq (local.get $b64) (i32.const 44))) (i64.const 63)))
            (i64.or (i64.shr_u (local.get $lm) (i64.const 1)) (i64.shl (i64.extend_i32_u (i32.eq (local.get $b64) (i32.const 10))) (i64.const 63))))
            (i64.or (i64.shr_u (local.get $qm) (i64.const 1)) (i64.shl (i64.extend_i32_u (i32.eq (local.get $b64) (i32.const 34))) (i64.const 63)))))
          ;; Closing quotes followed by something else: fine only if it is CR then LF.
          (local.set $bad (i64.and (local.get $xm) (i64.xor (local.get $am) (i64.const -1))))
          (if (i64.ne (local.get $bad) (i64.const 0))
            (then
              (local.set $crm (i64.or (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (i8x16.splat (i32.const 13)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 13)))) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 13)))) (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (i8x16.splat (i32.const 13)))) (i32.const 16)))) (i64.const 32))))
              (local.set $bad (i64.and (local.get $bad) (i64.xor (i64.and
                (i64.or (i64.shr_u (local.get $crm) (i64.const 1)) (i64.shl (i64.extend_i32_u (i32.eq (local.get $b64) (i32.const 13))) (i64.const 63)))
                (i64.or (i64.or (i64.shr_u (local.get $lm) (i64.const 2)) (i64.shl (i64.extend_i32_u (i32.eq (local.get $b64) (i32.const 10))) (i64.const 62)))
                  (i64.shl (i64.extend_i32_u (i32.eq (local.get $b65) (i32.const 10))) (i64.const 63)))) (i64.const -1))))))
          ;; A quote before bit 0 (an escaped "" across blocks) is left to the state machine.
          (br_if $slow (i64.ne (i64.or (i64.or
            (local.get $bad)
            (i64.and (local.get $om) (i64.xor (i64.or (local.get $sm) (i64.shl (local.get $qm) (i64.const 1))) (i64.const -1))))
            ;; A closing quote last, before a quote: an escaped "" across blocks, for the state machine.
            (i64.and (i64.shr_u (local.get $xm) (i64.const 63)) (i64.extend_i32_u (i32.eq (local.get $b64) (i32.const 34)))))
            (i64.const 0)))
          ;; Row ends: line feeds outside quoted cells, each with the line feeds before it.
          (local.set $em (i64.and (local.get $lm) (i64.xor (local.get $im) (i64.const -1))))
          (block $no_more
            (loop $each_end
              (br_if $no_more (i64.eqz (local.get $em)))
              (local.set $bit (i32.wrap_i64 (i64.ctz (local.get $em))))
              (i32.store (i32.add (i32.const 65600) (i32.shl (local.get $rows) (i32.const 3))) (i32.add (local.get $p) (local.get $bit)))
              (i32.store (i32.add (i32.const 65604) (i32.shl (local.get $rows) (i32.const 3)))
                (i32.add (local.get $nl) (i32.wrap_i64 (i64.popcnt (i64.and (local.get $lm)
                  (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $bit))) (i64.const 1)))))))
              (local.set $rows (i32.add (local.get $rows) (i32.const 1)))
              (local.set $em (i64.and (local.get $em) (i64.sub (local.get $em) (i64.const 1))))
              (br $each_end)))
          ;; The last quote that opened a cell (not the second quote of an escaped "").
          (local.set $om (i64.and (local.get $om) (local.get $sm)))
          (if (i64.ne (local.get $om) (i64.const 0))
            (then (i32.store (i32.const 65556) (i32.add (local.get $p) (i32.sub (i32.const 63) (i32.wrap_i64 (i64.clz (local.get $om))))))))
          (local.set $state (i32.wrap_i64 (i64.shr_u (local.get $im) (i64.const 63))))
          (local.set $nl (i32.add (local.get $nl) (i32.wrap_i64 (i64.popcnt (local.get $lm)))))
          (local.set $p (i32.add (local.get $p) (i32.const 64)))
          (br_if $done (i32.gt_u (local.get $rows) (i32.const 8100)))
          (br $main))
        (if (i32.eq (local.get $state) (i32.const 1))
          (then
            ;; Inside a quoted cell: on to the next quote, counting line feeds on the way.
            (local.set $from (local.get $p))
            (block $found
              (loop $block16
                (br_if $found (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
                (local.set $v (v128.load (local.get $p)))
                (local.set $quotes (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))))
                (local.set $lfs (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10)))))
                (if (i32.eqz (local.get $quotes))
                  (then
                    (local.set $nl (i32.add (local.get $nl) (i32.popcnt (local.get $lfs))))
                    (local.set $p (i32.add (local.get $p) (i32.const 16)))
                    (br $block16)))
                (local.set $q (i32.ctz (local.get $quotes)))
                (local.set $nl (i32.add (local.get $nl)
                  (i32.popcnt (i32.and (local.get $lfs) (i32.sub (i32.shl (i32.const 1) (local.get $q)) (i32.const 1))))))
                (local.set $p (i32.add (local.get $p) (local.get $q)))))
            (local.set $dense (i32.lt_u (i32.sub (local.get $p) (local.get $from)) (i32.const 32)))
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $b (i32.load8_u (local.get $p)))
            (if (i32.eq (local.get $b) (i32.const 34)) (then (local.set $state (i32.const 2))))
            (if (i32.eq (local.get $b) (i32.const 10)) (then (local.set $nl (i32.add (local.get $nl) (i32.const 1)))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $main)))
        (if (i32.eqz (local.get $state))
          (then
            ;; Outside: on to the next quote or line feed.
            (local.set $from (local.get $p))
            (block $found
              (loop $block16
                (br_if $found (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
                (local.set $v (v128.load (local.get $p)))
                (local.set $q (i8x16.bitmask (v128.or
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10))))))
                (if (i32.eqz (local.get $q))
                  (then (local.set $p (i32.add (local.get $p) (i32.const 16))) (br $block16)))
                (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $q))))))
            (local.set $dense (i32.lt_u (i32.sub (local.get $p) (local.get $from)) (i32.const 32)))
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $b (i32.load8_u (local.get $p)))
            (if (i32.eq (local.get $b) (i32.const 10))
              (then
                ;; A row ends here.
                (i32.store (i32.add (i32.const 65600) (i32.shl (local.get $rows) (i32.const 3))) (local.get $p))
                (i32.store (i32.add (i32.const 65604) (i32.shl (local.get $rows) (i32.const 3))) (local.get $nl))
                (local.set $rows (i32.add (local.get $rows) (i32.const 1)))
                (local.set $nl (i32.add (local.get $nl) (i32.const 1)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br_if $done (i32.gt_u (local.get $rows) (i32.const 8100)))
                (br $main)))
            (if (i32.eq (local.get $b) (i32.const 34))
              (then
                (local.set $q (local.get $prev))
                (if (i32.gt_u (local.get $p) (local.get $start))
                  (then (local.set $q (i32.load8_u (i32.sub (local.get $p) (i32.const 1))))))
                (if (i32.or (i32.eq (local.get $q) (i32.const 10)) (i32.eq (local.get $q) (i32.const 44)))
                  (then
                    (local.set $state (i32.const 1))
                    (i32.store (i32.const 65556) (local.get $p))))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $main)))
        ;; States 2, 3 and 4: the bytes after a quote inside a quoted cell decide what it was.
        (local.set $b (i32.load8_u (local.get $p)))
        (block $decided
          (if (i32.eq (local.get $state) (i32.const 4))
            (then
              ;; A line feed: the row ends (state 0 takes it); else the CR was text: state 1 takes the byte.
              (if (i32.eq (local.get $b) (i32.const 10))
                (then (local.set $state (i32.const 0)))
                (else (call $malformed (local.get $p)) (local.set $state (i32.const 1))))
              (br $decided)))
          (if (i32.eq (local.get $b) (i32.const 34))
            (then
              ;; "" is a quote; a quote after spaces is a new candidate (and the first was malformed).
              (if (i32.eq (local.get $state) (i32.const 2))
                (then (local.set $state (i32.const 1)))
                (else (call $malformed (local.get $p)) (local.set $state (i32.const 2))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $decided)))
          (if (i32.eq (local.get $b) (i32.const 44))
            (then (local.set $state (i32.const 0)) (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $decided)))
          (if (i32.eq (local.get $b) (i32.const 10))
            (then (local.set $state (i32.const 0)) (br $decided)))
          (if (i32.eq (local.get $b) (i32.const 13))
            (then (local.set $state (i32.const 4)) (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $decided)))
          (if (i32.or (i32.eq (local.get $b) (i32.const 32)) (i32.eq (local.get $b) (i32.const 9)))
            (then (local.set $state (i32.const 3)) (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $decided)))
          (call $malformed (local.get $p))
          (local.set $state (i32.const 1))
          (local.set $p (i32.add (local.get $p) (i32.const 1))))
        (br_if $done (i32.and (local.get $stop_on_malformed) (i32.ne (i32.load (i32.const 65548)) (i32.const 0))))
        (br $main)))
    (i32.store (i32.const 65536) (local.get $state))
    (i32.store (i32.const 65540) (local.get $nl))
    (i32.store (i32.const 65544) (local.get $rows))
    (local.get $p))
)
