//go:build amd64 && !purego

#include "textflag.h"

// Byte masks for the zigzag decoding of one-byte varints, x>>1 ^ -(x&1),
// done in every byte at once: VPSRLW shifts 16-bit words, so the bit each
// byte takes from the byte above is masked off with 0x7f (bit 6 of x>>1 is
// the clear continuation bit).
DATA lowBit<>+0(SB)/8, $0x0101010101010101
GLOBL lowBit<>(SB), RODATA|NOPTR, $8
DATA low7<>+0(SB)/8, $0x7f7f7f7f7f7f7f7f
GLOBL low7<>(SB), RODATA|NOPTR, $8


// LOAD_ARGS_AND_MASKS loads dst (DI, length CX) and src (SI, length DX)
// of func(dst []T, src []byte) int, zeroes the count (AX) and sets the
// masks: Y13 low bits, Y14 low 7 bits, Y15 zero.
#define LOAD_ARGS_AND_MASKS \
	MOVQ dst_base+0(FP), DI \
	MOVQ dst_len+8(FP), CX \
	MOVQ src_base+24(FP), SI \
	MOVQ src_len+32(FP), DX \
	XORQ AX, AX \
	VPBROADCASTQ lowBit<>(SB), Y13 \
	VPBROADCASTQ low7<>(SB), Y14 \
	VPXOR Y15, Y15, Y15

// UNZIGZAG_BYTES sets Y1 to the zigzag decoding of the 32 one-byte
// varints in Y0 (Y2 is scratch).
#define UNZIGZAG_BYTES \
	VPSRLW $1, Y0, Y1 \
	VPAND Y14, Y1, Y1 \
	VPAND Y13, Y0, Y2 \
	VPSUBB Y2, Y15, Y2 \
	VPXOR Y2, Y1, Y1

// LOAD_BLOCK_OR loads the next 32 bytes of src into Y0, or jumps to exit
// when dst has no room for 32 more values, src has fewer than 32 bytes
// left, or one of them has its continuation bit set.
#define LOAD_BLOCK_OR(exit) \
	MOVQ CX, R8 \
	SUBQ AX, R8 \
	CMPQ R8, $32 \
	JLT exit \
	MOVQ DX, R8 \
	SUBQ AX, R8 \
	CMPQ R8, $32 \
	JLT exit \
	VMOVDQU (SI)(AX*1), Y0 \
	VPMOVMSKB Y0, R9 \
	TESTL R9, R9 \
	JNZ exit

// func oneByteRunsAVX2(dst []int64, src []byte) int
TEXT ·oneByteRunsAVX2(SB), NOSPLIT, $0-56
	LOAD_ARGS_AND_MASKS

block32:
	LOAD_BLOCK_OR(done)
	UNZIGZAG_BYTES
	// Sign-extend 4 bytes at a time to 4 longs: the low lane, then the
	// high one.
	LEAQ (DI)(AX*8), R10
	VPMOVSXBQ X1, Y3
	VMOVDQU Y3, 0(R10)
	VPSRLDQ $4, X1, X4
	VPMOVSXBQ X4, Y3
	VMOVDQU Y3, 32(R10)
	VPSRLDQ $8, X1, X4
	VPMOVSXBQ X4, Y3
	VMOVDQU Y3, 64(R10)
	VPSRLDQ $12, X1, X4
	VPMOVSXBQ X4, Y3
	VMOVDQU Y3, 96(R10)
	VEXTRACTI128 $1, Y1, X5
	VPMOVSXBQ X5, Y3
	VMOVDQU Y3, 128(R10)
	VPSRLDQ $4, X5, X4
	VPMOVSXBQ X4, Y3
	VMOVDQU Y3, 160(R10)
	VPSRLDQ $8, X5, X4
	VPMOVSXBQ X4, Y3
	VMOVDQU Y3, 192(R10)
	VPSRLDQ $12, X5, X4
	VPMOVSXBQ X4, Y3
	VMOVDQU Y3, 224(R10)
	ADDQ $32, AX
	JMP block32

done:
	VZEROUPPER
	MOVQ AX, ret+48(FP)
	RET

// func oneByteRunsIntsAVX2(dst []int32, src []byte) int
TEXT ·oneByteRunsIntsAVX2(SB), NOSPLIT, $0-56
	LOAD_ARGS_AND_MASKS

ints32:
	LOAD_BLOCK_OR(intsdone)
	UNZIGZAG_BYTES
	// Sign-extend 8 bytes at a time to 8 ints.
	LEAQ (DI)(AX*4), R10
	VPMOVSXBD X1, Y3
	VMOVDQU Y3, 0(R10)
	VPSRLDQ $8, X1, X4
	VPMOVSXBD X4, Y3
	VMOVDQU Y3, 32(R10)
	VEXTRACTI128 $1, Y1, X5
	VPMOVSXBD X5, Y3
	VMOVDQU Y3, 64(R10)
	VPSRLDQ $8, X5, X4
	VPMOVSXBD X4, Y3
	VMOVDQU Y3, 96(R10)
	ADDQ $32, AX
	JMP ints32

intsdone:
	VZEROUPPER
	MOVQ AX, ret+48(FP)
	RET

// STORE_EIGHT_SMALL stores at dst[AX:AX+8] (DI) the 8 one-byte varints
// of register w (continuation bits clear): unzigzagged in every byte at
// once (as unzigBytes), sign-extended 4 at a time. It clobbers w, t, R13,
// X0 and Y1.
#define STORE_EIGHT_SMALL(w, t) \
	MOVQ w, R13 \
	SHRQ $1, R13 \
	MOVQ $0x3f3f3f3f3f3f3f3f, t \
	ANDQ t, R13 \
	MOVQ $0x0101010101010101, t \
	ANDQ t, w \
	IMULQ $0xff, w \
	XORQ w, R13 \
	VMOVQ R13, X0 \
	VPMOVSXBQ X0, Y1 \
	VMOVDQU Y1, (DI)(AX*8) \
	VPSRLQ $32, X0, X0 \
	VPMOVSXBQ X0, Y1 \
	VMOVDQU Y1, 32(DI)(AX*8)

// func mixedLongsBMI2(dst []int64, src []byte) (n, p int)
//
// While 40 bytes of src are left from the block, 32-byte blocks, one
// after the other whatever their values: the block's stop bits
// (VPMOVMSKB) mark where each value in it ends, and each value's end is
// the next stop bit (TZCNT, then BLSR drops it). No value waits for a load
// to learn where it starts, only for the mask, so the values of a block
// decode in parallel: each one's 7-bit groups packed from a word loaded
// at its start (PEXT, the mask of its bytes from BZHI), a value of 9 or
// 10 bytes with its last byte or two added on, 8 one-byte values at once
// when dst has room for 8. A valid value that goes on past a block ends
// in the next. (Each step waiting on the previous value's length, as
// below, took 3.3 ns a value on the Xeon of bench/README.md; the blocks
// take 1.0-1.1 for values of 2 to 8 bytes.) Then, near the end of src,
// one value a step: the stop bits of the 8 bytes at p (ANDN), the value's
// bytes up to its stop bit (BLSMSK), its groups (PEXT), its length from
// the stop bit's position (TZCNT).
//
// It returns to the caller, which finishes the rest, at an invalid value,
// at the end of src (every load is in bounds: the block loop's below the
// block+40, the step loop's below p+16, as in the Go loop), and at a
// block of 32 one-byte values with room for them (for oneByteRunsAVX2).
TEXT ·mixedLongsBMI2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	XORQ AX, AX                   // n
	XORQ BX, BX                   // the block (the step loop: p)
	XORQ R10, R10                 // p, in the block loop
	MOVQ $0x7f7f7f7f7f7f7f7e, R9  // payload bits but x's lowest

blocks:
	// The block at BX, a multiple of 32 from the start of src; the next
	// value starts at R10, at the block or before it (a value that goes on
	// past the last block): at most 9 bytes before it when that value is
	// valid, at most 31 (the last block had a stop bit) when not.
	MOVQ src_len+32(FP), R12
	SUBQ $40, R12
	CMPQ BX, R12                  // 40 bytes from the block
	JGT steps
	VMOVDQU (SI)(BX*1), Y0
	VPMOVMSKB Y0, R11
	XORL $-1, R11                 // the block's stop bits
	JZ blockexit                  // no value ends in 32 bytes: invalid
	CMPL R11, $-1
	JNE value
	CMPQ R10, BX
	JNE value
	LEAQ 32(AX), R12              // 32 one-byte values: back to the caller
	CMPQ R12, CX                  // when dst has room for them
	JLE blockexit

	// Every block has a stop bit (above), so the next value starts at
	// most 31 bytes before the block, and the shift below of the block's
	// stop bits by its start, taken mod 64, clears them all when it is
	// before the block.
	//
	// The loop starts on a 64-byte boundary: where it fell by chance, a
	// change of one instruction before it made values of 3 to 5 bytes 56%
	// slower (and random 64-bit ones 16% faster) on the Xeon. A 32-byte
	// boundary was not enough: when the linker placed the function at 32
	// mod 64 rather than 0, arrays of timestamps decoded 57% slower and
	// of mixed longs 9% (the code unchanged, other packages grown).
	PCALIGN $64
value:
	CMPQ AX, CX
	JGE blockexit                 // dst is full
	TESTL R11, R11
	JZ blocknext                  // the next value ends past the block
	MOVQ R10, R12
	SUBQ BX, R12                  // the value's start in the block (if
	SHRXQ R12, R11, R12           // before it, the shift clears all)
	CMPB R12, $0xff
	JEQ blockeight
	TZCNTL R11, R12
	ADDQ BX, R12                  // the value's last byte
	BLSRL R11, R11
	MOVQ R12, R13
	SUBQ R10, R13                 // its length - 1
	CMPQ R13, $7
	JA blocklong

blockshort:
	// Unzigzagged as x>>1 ^ -(x&1), with x>>1 packed directly: R9's
	// groups leave out the lowest bit.
	MOVQ (SI)(R10*1), R14
	LEAQ 8(R13*8), R13
	BZHIQ R13, R9, R13            // the payload bits of its bytes
	PEXTQ R13, R14, R13           // x>>1
	ANDL $1, R14
	NEGQ R14
	XORQ R13, R14
	LEAQ 1(R12), R10              // the next value's start
	MOVQ R14, (DI)(AX*8)
	INCQ AX
	JMP value

blockeight:
	// 8 one-byte values, when dst has room for them.
	LEAQ 8(AX), R12
	CMPQ R12, CX
	JGT blockone
	MOVQ (SI)(R10*1), R14
	STORE_EIGHT_SMALL(R14, R12)
	ADDQ $8, AX
	MOVQ R10, R13                 // their stop bits cleared
	SUBQ BX, R13
	MOVL $0xff, R12
	SHLXQ R13, R12, R12
	ANDNQ R11, R12, R11
	ADDQ $8, R10
	JMP value

blockone:
	// Fewer than 8 values fit: a one-byte value as any other.
	MOVQ R10, R12
	BLSRL R11, R11
	XORL R13, R13
	JMP blockshort

blocklong:
	// 9 or 10 bytes: the 8 bytes' groups, then the 9th byte's and the
	// 10th's bit, with no branch between the two lengths. A 10th byte
	// above 1, or a value longer than 10 bytes, is invalid and goes back
	// to the caller, which reports it.
	CMPQ R13, $9
	JA blockexit
	MOVQ (SI)(R10*1), R14
	PEXTQ R9, R14, R15            // x>>1, up to bit 54
	MOVWQZX 8(SI)(R10*1), R8      // the 9th byte and the 10th
	SUBQ $8, R13
	NEGQ R13                      // all ones for 10 bytes, else 0
	MOVQ R8, DX
	SHRQ $9, DX                   // the 10th byte's bits above its first
	ANDQ R13, DX
	JNZ blockexit
	MOVQ R8, DX
	SHRQ $1, DX
	ANDQ $0x80, DX
	ANDQ R13, DX                  // the 10th byte's bit, as bit 7
	ANDQ $0x7f, R8
	ORQ DX, R8
	SHLQ $55, R8
	ORQ R8, R15                   // x>>1
	ANDL $1, R14
	NEGQ R14
	XORQ R15, R14
	LEAQ 1(R12), R10
	MOVQ R14, (DI)(AX*8)
	INCQ AX
	JMP value

blocknext:
	// The next block, 32 bytes on whatever the values were: no wait on
	// where the last value ended.
	ADDQ $32, BX
	JMP blocks

blockexit:
	MOVQ R10, BX
	JMP mixeddone

steps:
	// From the next value on; the block loop used DX and R8 as scratch.
	MOVQ R10, BX
	MOVQ src_len+32(FP), DX
	SUBQ $16, DX                  // the last p with 16 bytes from it
	MOVQ $0x8080808080808080, R8  // continuation bits
	MOVQ $0x7f7f7f7f7f7f7f7f, R9  // payload bits

step:
	CMPQ AX, CX
	JGE mixeddone
	CMPQ BX, DX
	JGT mixeddone
	MOVQ (SI)(BX*1), R10          // w
	ANDNQ R8, R10, R11            // m: the stop bits of w's bytes
	CMPQ R11, R8
	JNE single
	LEAQ 8(AX), R12
	CMPQ R12, CX
	JLE eightsmall                // 8 one-byte values, and room for them

single:
	TESTQ R11, R11
	JZ long9                      // 9 or 10 bytes
	BLSMSKQ R11, R12              // the value's bytes...
	ANDQ R9, R12                  // ...their payload bits
	PEXTQ R12, R10, R13           // x
	TZCNTQ R11, R14
	INCQ R14
	SHRQ $3, R14                  // the value's length
	ADDQ R14, BX

store:
	MOVQ R13, R15                 // unzigzag: x>>1 ^ -(x&1)
	SHRQ $1, R15
	ANDQ $1, R13
	NEGQ R13
	XORQ R15, R13
	MOVQ R13, (DI)(AX*8)
	INCQ AX
	JMP step

long9:
	// The 8 bytes' groups, then the 9th byte's and the 10th's bit; an
	// invalid 10th byte goes back to the caller, which reports it.
	PEXTQ R9, R10, R13
	MOVBQZX 8(SI)(BX*1), R12
	TESTQ $0x80, R12
	JNZ long10
	SHLQ $56, R12
	ORQ R12, R13
	ADDQ $9, BX
	JMP store

long10:
	MOVBQZX 9(SI)(BX*1), R14
	CMPQ R14, $1
	JA mixeddone
	ANDQ $0x7f, R12
	SHLQ $56, R12
	ORQ R12, R13
	SHLQ $63, R14
	ORQ R14, R13
	ADDQ $10, BX
	JMP store

eightsmall:
	// A block of 32 one-byte values, with room for them, goes back to the
	// caller, whose AVX2 kernel decodes 32 a step.
	LEAQ 32(AX), R13
	CMPQ R13, CX
	JGT eight
	LEAQ 16(BX), R13              // 32 bytes left from p
	CMPQ R13, DX
	JGT eight
	VMOVDQU (SI)(BX*1), Y2
	VPMOVMSKB Y2, R13
	TESTL R13, R13
	JZ mixeddone

eight:
	// 8 one-byte values.
	STORE_EIGHT_SMALL(R10, R14)
	MOVQ R12, AX
	ADDQ $8, BX
	JMP step

mixeddone:
	VZEROUPPER
	MOVQ AX, n+48(FP)
	MOVQ BX, p+56(FP)
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET
