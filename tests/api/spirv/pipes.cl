// Pipe built-ins through SPIR-V: a producer and consumer of ints, with
// reservations, and the queries.
__kernel void produce(__global const int *src, __write_only pipe int out, __global int *ok) {
  size_t i = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(out, 1);
  ok[i] = is_valid_reserve_id(r);
  if (is_valid_reserve_id(r)) {
    write_pipe(out, r, 0, &src[i]);
    commit_write_pipe(out, r);
  }
}
// The queries run alone, between the producer and the consumer: read in
// the consumer they would race with the reservations of its other groups.
__kernel void query(__read_only pipe int in, __global uint *counts) {
  counts[0] = get_pipe_num_packets(in);
  counts[1] = get_pipe_max_packets(in);
}
__kernel void consume(__read_only pipe int in, __global int *dst) {
  size_t i = get_global_id(0);
  reserve_id_t r = work_group_reserve_read_pipe(in, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    read_pipe(in, r, get_local_id(0), &dst[i]);
    work_group_commit_read_pipe(in, r);
  }
}
