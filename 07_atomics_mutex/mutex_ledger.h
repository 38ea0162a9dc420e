/* A ledger that many threads update under one lock: the mutex of mutex.cuh protecting data
 * that no single atomic can update (exercise ex07.2).
 *
 * The balance is 64 bits kept in two 32-bit words, with a carry from one into the other, and
 * beside it a count and a maximum: four words that must change together. An atomicAdd on each
 * word would leave moments where the balance is half updated; the lock makes the whole update
 * one step for everyone else. */
#ifndef ATOMICS_MUTEX_LEDGER_H
#define ATOMICS_MUTEX_LEDGER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned int low, high; /* the balance: high x 2^32 + low */
    unsigned int deposits;  /* how many deposits */
    unsigned int largest;   /* the largest one */
} ledger;

typedef enum {
    LOCK_EVERY_THREAD,  /* each thread takes the lock for its own amount */
    LOCK_ONE_PER_BLOCK  /* thread 0 of each block deposits its block's amounts, one lock each */
} ledger_mode;

/* Deposits amounts[0 .. blocks x threads) (device) into *book (device) under *mutex (device,
 * 0 = free), on stream 0; returns without waiting. */
void ledger_deposit(ledger *book, int *mutex, const unsigned int *amounts, int blocks,
                    int threads, ledger_mode mode);

#ifdef __cplusplus
}
#endif

#endif
