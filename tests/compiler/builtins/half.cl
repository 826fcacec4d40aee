// SPDX-License-Identifier: MIT
// The half (cl_khr_fp16) built-ins of OpenCL 1.2 sections 6.12.2 to 6.12.6
// and 9.5: every math function of one and two halves (names in the order
// of test_builtins.c's tables), those with integer or pointer operands,
// fma and mad, and the geometric functions on half4, one result each per
// work-item and function.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define NU 43
#define NB 15
#define NO 12

kernel void half_unary(global const half *in, global half *out)
{
	size_t i = get_global_id(0);
	half x = in[i];
	global half *o = out + NU * i;

	o[0] = acos(x);
	o[1] = acosh(x);
	o[2] = acospi(x);
	o[3] = asin(x);
	o[4] = asinh(x);
	o[5] = asinpi(x);
	o[6] = atan(x);
	o[7] = atanh(x);
	o[8] = atanpi(x);
	o[9] = cbrt(x);
	o[10] = ceil(x);
	o[11] = cos(x);
	o[12] = cosh(x);
	o[13] = cospi(x);
	o[14] = erfc(x);
	o[15] = erf(x);
	o[16] = exp(x);
	o[17] = exp2(x);
	o[18] = exp10(x);
	o[19] = expm1(x);
	o[20] = fabs(x);
	o[21] = floor(x);
	o[22] = lgamma(x);
	o[23] = log(x);
	o[24] = log2(x);
	o[25] = log10(x);
	o[26] = log1p(x);
	o[27] = logb(x);
	o[28] = rint(x);
	o[29] = round(x);
	o[30] = rsqrt(x);
	o[31] = sin(x);
	o[32] = sinh(x);
	o[33] = sinpi(x);
	o[34] = sqrt(x);
	o[35] = tan(x);
	o[36] = tanh(x);
	o[37] = tanpi(x);
	o[38] = tgamma(x);
	o[39] = trunc(x);
	o[40] = degrees(x);
	o[41] = radians(x);
	o[42] = sign(x);
}

kernel void half_binary(global const half *in, global const half *in2,
			  global half *out)
{
	size_t i = get_global_id(0);
	half x = in[i], y = in2[i];
	global half *o = out + NB * i;

	o[0] = atan2(x, y);
	o[1] = atan2pi(x, y);
	o[2] = copysign(x, y);
	o[3] = fdim(x, y);
	o[4] = fmax(x, y);
	o[5] = fmin(x, y);
	o[6] = fmod(x, y);
	o[7] = hypot(x, y);
	o[8] = maxmag(x, y);
	o[9] = minmag(x, y);
	o[10] = nextafter(x, y);
	o[11] = pow(x, y);
	o[12] = powr(x, y);
	o[13] = remainder(x, y);
	o[14] = step(x, y);
}

// 0 fma, 1 mad, 2 ldexp, 3 pown, 4 rootn, 5 frexp (6 its exponent),
// 7 remquo (8 its quotient's low 7 bits with the sign), 9 sincos (10 cos),
// 11 ilogb; n in -20..20.
kernel void half_other(global const half *in, global const half *in2,
		       global const half *in3, global const int *n,
		       global half *out, global int *iout)
{
	size_t i = get_global_id(0);
	half x = in[i], y = in2[i], z = in3[i], c;
	int e, q;
	global half *o = out + NO * i;

	o[0] = fma(x, y, z);
	o[1] = mad(x, y, z);
	o[2] = ldexp(x, n[i]);
	o[3] = pown(x, n[i]);
	o[4] = rootn(x, n[i]);
	o[5] = frexp(x, &e);
	iout[2 * i] = e;
	o[7] = remquo(x, y, &q);
	iout[2 * i + 1] = q;
	o[9] = sincos(x, &c);
	o[10] = c;
	o[11] = (half)ilogb(x);
}

// dot, length, distance, normalize, cross and sincos on half4.
kernel void half_vec4(global const half4 *in, global const half4 *in2,
		      global half4 *out)
{
	size_t i = get_global_id(0);
	half4 x = in[i], y = in2[i], c;
	global half4 *o = out + 4 * i;

	o[0] = (half4)(dot(x, y), length(x), distance(x, y), 0);
	o[1] = normalize(x);
	o[2] = cross(x, y);
	o[3] = sincos(x, &c) + c;
}

// half16: the lowerings split into pieces of four: arithmetic and fma,
// then a library function (sincos is tested on half4: on wider vectors
// libclc's takes more thread storage than the runner has, for floats too).
kernel void half_vec16(global const half16 *in, global const half16 *in2,
		       global const half16 *in3, global half16 *out)
{
	size_t i = get_global_id(0);
	half16 x = in[i], y = in2[i], z = in3[i];
	global half16 *o = out + 4 * i;

	o[0] = x + y;
	o[1] = x * y;
	o[2] = fma(x, y, z);
}

kernel void half_vec16_math(global const half16 *in, global half16 *out)
{
	size_t i = get_global_id(0);
	global half16 *o = out + 4 * i;

	o[3] = exp(in[i]);
}

// The relational functions (section 6.12.6) on half (1 / 0) and half4
// (-1 / 0 in shorts), bit k for function k; bit 14: a lane neither.
#define REL(x, y) isequal(x, y), isnotequal(x, y), isgreater(x, y),        \
	isgreaterequal(x, y), isless(x, y), islessequal(x, y),              \
	islessgreater(x, y), isfinite(x), isinf(x), isnan(x), isnormal(x),  \
	isordered(x, y), isunordered(x, y), signbit(x)

kernel void half_relational(global const half *in, global const half *in2,
			    global int *out, global short *out4)
{
	size_t i = get_global_id(0);
	half x = in[i], y = in2[i];
	half4 x4 = vload4(i, in), y4 = vload4(i, in2);
	int r[14] = { REL(x, y) };
	short4 r4[14] = { REL(x4, y4) };
	int bits = 0;

	for (int k = 0; k < 14; k++)
		bits |= (r[k] == 1 ? 1 : r[k] ? 1 << 14 : 0) << (r[k] == 1 ? k : 0);
	out[i] = bits;
	for (int j = 0; j < 4; j++) {
		int b = 0;

		for (int k = 0; k < 14; k++)
			b |= r4[k][j] == -1 ? 1 << k : r4[k][j] ? 1 << 14 : 0;
		out4[4 * i + j] = (short)b;
	}
}

// Conversions to half from int, uint and long in each rounding mode and
// from float to half (o[0..12]), and from half to int, saturated int
// rounded to nearest even, uchar saturated and short (io[0..3]).
kernel void half_convert(global const int *in, global const uint *uin,
			 global const long *lin, global const float *fin,
			 global const half *hin, global half *out,
			 global int *iout)
{
	size_t i = get_global_id(0);
	int n = in[i];
	uint u = uin[i];
	long l = lin[i];
	float f = fin[i];
	half h = hin[i];
	global half *o = out + 16 * i;
	global int *io = iout + 4 * i;

	o[0] = convert_half(n);
	o[1] = convert_half_rtz(n);
	o[2] = convert_half_rtp(n);
	o[3] = convert_half_rtn(n);
	o[4] = convert_half_rte(u);
	o[5] = convert_half_rtz(u);
	o[6] = convert_half_rtp(l);
	o[7] = convert_half_rtn(l);
	o[8] = convert_half(l);
	o[9] = convert_half_rte(f);
	o[10] = convert_half_rtz(f);
	o[11] = convert_half_rtp(f);
	o[12] = convert_half_rtn(f);
	io[0] = convert_int(h);
	io[1] = convert_int_sat_rte(h);
	io[2] = convert_uchar_sat(h);
	io[3] = convert_short(h);
}
