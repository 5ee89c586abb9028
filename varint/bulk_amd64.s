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
