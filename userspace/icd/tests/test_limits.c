/* SPDX-License-Identifier: MIT */
/* icd_device_limits_derive(): the device's figures from GET_PARAM values. */
#include "fake_gpu.h"
#include "icd_tests.h"

#define MIB (1024ull * 1024)

TEST(t860_with_1_gib)
{
	struct icd_device_limits l;

	REQUIRE(icd_device_limits_derive(&fake_t860, FAKE_RAM, &l));
	CHECK(strcmp(l.name, "Mali-T860 MP4") == 0);
	CHECK_EQ(l.compute_units, 4);
	CHECK_EQ(l.max_work_group_size, 256);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(l.max_work_item_sizes[i], 256);
	CHECK_EQ(l.global_mem_size, FAKE_RAM);
	CHECK_EQ(l.max_mem_alloc_size, 256 * MIB);
	CHECK_EQ(l.local_mem_size, 32 * 1024);
	CHECK_EQ(l.global_mem_cacheline_size, 64);
	CHECK_EQ(l.global_mem_cache_size, 256 * 1024);
	/* 62.5 MHz: one tick every 16 ns. */
	CHECK_EQ(l.profiling_timer_resolution, 16);
}

/* Below 512 MiB the spec's 128 MiB floor wins over a quarter. */
TEST(max_alloc_floor)
{
	struct icd_device_limits l;

	REQUIRE(icd_device_limits_derive(&fake_t860, 256 * MIB, &l));
	CHECK_EQ(l.max_mem_alloc_size, 128 * MIB);
	/* ...but never more than there is. */
	REQUIRE(icd_device_limits_derive(&fake_t860, 64 * MIB, &l));
	CHECK_EQ(l.max_mem_alloc_size, 64 * MIB);
}

/* 32-bit pointers: global memory stops at 4 GiB of GPU address space. */
TEST(global_mem_capped_by_pointers)
{
	struct icd_device_limits l;

	REQUIRE(icd_device_limits_derive(&fake_t860, 16 * 1024 * MIB, &l));
	CHECK_EQ(l.global_mem_size, 4096 * MIB - fake_t860.va_start);
	CHECK_EQ(l.max_mem_alloc_size, l.global_mem_size / 4);
}

TEST(unknown_product_and_odd_values)
{
	struct icd_gpu_params p = fake_t860;
	struct icd_device_limits l;

	p.gpu_id = 0x12340000;
	p.shader_present = 0x3;
	p.shader_core_mask = 0x3;
	p.timestamp_frequency = 24000000; /* 41.67 ns: rounded up */
	p.l2_features = 0;                /* no line size: Midgard's 64 */
	REQUIRE(icd_device_limits_derive(&p, FAKE_RAM, &l));
	CHECK(strcmp(l.name, "Mali (product 0x1234) MP2") == 0);
	CHECK_EQ(l.profiling_timer_resolution, 42);
	CHECK_EQ(l.global_mem_cacheline_size, 64);
	p.timestamp_frequency = 0;
	REQUIRE(icd_device_limits_derive(&p, FAKE_RAM, &l));
	CHECK_EQ(l.profiling_timer_resolution, 1);
}

/*
 * Exynos 5422's T628 MP6: two core groups (4 + 2 cores, an L2 each), of
 * which sleipnir.ko uses the first. The part is an MP6; work runs on 4
 * cores behind one 128 KiB L2.
 */
TEST(t628_mp6_uses_its_first_core_group)
{
	struct icd_gpu_params p = fake_t860;
	struct icd_device_limits l;

	p.gpu_id = 0x06201000;
	p.shader_present = 0x3f;
	p.shader_core_mask = 0xf;
	p.l2_present = 0x11;
	p.l2_features = 0x07110206;
	p.l2_size = 128 * 1024;
	REQUIRE(icd_device_limits_derive(&p, FAKE_RAM, &l));
	CHECK(strcmp(l.name, "Mali-T62x MP6") == 0);
	CHECK_EQ(l.compute_units, 4);
	CHECK_EQ(l.global_mem_cache_size, 128 * 1024);
}

TEST(unusable_gpus_are_refused)
{
	struct icd_gpu_params p = fake_t860;
	struct icd_device_limits l;

	p.shader_present = 0;
	CHECK(!icd_device_limits_derive(&p, FAKE_RAM, &l));
	p = fake_t860;
	p.shader_core_mask = 0;
	CHECK(!icd_device_limits_derive(&p, FAKE_RAM, &l));
	p = fake_t860;
	p.thread_max_workgroup_size = 0;
	CHECK(!icd_device_limits_derive(&p, FAKE_RAM, &l));
	p = fake_t860;
	p.va_start = 1ull << 32;
	CHECK(!icd_device_limits_derive(&p, FAKE_RAM, &l));
}

void test_limits_all(void)
{
	RUN(t860_with_1_gib);
	RUN(max_alloc_floor);
	RUN(global_mem_capped_by_pointers);
	RUN(unknown_product_and_odd_values);
	RUN(t628_mp6_uses_its_first_core_group);
	RUN(unusable_gpus_are_refused);
}
