/* The memory of a pipe object: the one contract between the runtime, which
 * creates a pipe (Pipe.cpp), and the pipe built-ins, which run in kernels
 * (src/builtins/Pipes.cl). Plain macros, so that C++ and OpenCL C read the
 * same file.
 *
 * A pipe is a bounded multi-producer multi-consumer ring of Slots packet
 * slots, Slots the power of two at or above max_packets, laid out as
 *
 *   [header: WEFT_PIPE_HEADER_SIZE bytes]
 *   [uint Seq[Slots]]         one sequence number per slot
 *   [packets: Slots * PacketSize bytes, at WEFT_PIPE_PACKETS(Slots)]
 *
 * Positions are 32-bit and wrap; a packet at position p lives in slot
 * p & (Slots - 1), and Seq of that slot says what it holds:
 *   Seq == p          free for the writer of position p
 *   Seq == p + 1      written and committed: readable at position p
 *   Seq == p + Slots  read and committed: free for position p + Slots
 * A writer reserves k contiguous positions from WritePos when their slots
 * are free and fewer than max_packets packets would be outstanding
 * (WritePos - ReadDone), with one compare-and-swap of WritePos; a reader
 * reserves k from ReadPos when their slots are committed. Commits publish
 * slot by slot, so reservations may commit in any order and no work-item
 * ever waits for another: a failed reservation is "full" or "empty".
 */
#ifndef WEFT_RUNTIME_PIPE_LAYOUT_H
#define WEFT_RUNTIME_PIPE_LAYOUT_H

/* Header fields (uint each); the three counters on cache lines of their own. */
#define WEFT_PIPE_WRITE_POS 0    /* next position a writer reserves */
#define WEFT_PIPE_READ_POS 64    /* next position a reader reserves */
#define WEFT_PIPE_READ_DONE 128  /* packets whose read has been committed */
#define WEFT_PIPE_MAX_PACKETS 192 /* max_packets of clCreatePipe */
#define WEFT_PIPE_SLOTS 196       /* the ring's size: a power of two */
#define WEFT_PIPE_PACKET_SIZE 200 /* bytes */
#define WEFT_PIPE_HEADER_SIZE 256

/* Where the sequence numbers and the packets start. Packets are aligned for
 * any OpenCL C type (long16: 128 bytes). */
#define WEFT_PIPE_SEQ WEFT_PIPE_HEADER_SIZE
#define WEFT_PIPE_PACKETS(Slots) ((WEFT_PIPE_SEQ + 4 * (Slots) + 127) / 128 * 128)

/* The largest ring: positions are 32-bit and compared by difference. */
#define WEFT_PIPE_MAX_SLOTS (1u << 30)

#endif
