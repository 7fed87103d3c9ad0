/* A bulk TCP transfer for tools/kernel: the kernel's own TCP as a reference for orbitcp's
 * `linux` profile. Runs inside the VM that tools/kernel/run.py boots.
 *
 *   bulk recv PORT                       accepts one connection and reads it to the end
 *   bulk send ADDR PORT CC SECONDS       sends for SECONDS with congestion control CC, then
 *                                        prints one line of the socket's TCP_INFO
 *
 * The sender's line: `result cc=... acked=BYTES retrans=SEGS dsack_dups=SEGS timeouts=N ...`,
 * read at SECONDS, before the socket closes, so that it counts what orbitcp's run of the same
 * length counts. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h> /* the kernel's tcp_info, with the counters glibc's lacks */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int die(const char *what) {
  fprintf(stderr, "bulk: %s: %s\n", what, strerror(errno));
  return 1;
}

static int recv_all(int port) {
  int l = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  if (bind(l, (struct sockaddr *)&a, sizeof a) < 0) return die("bind");
  if (listen(l, 1) < 0) return die("listen");
  int c = accept(l, NULL, NULL);
  if (c < 0) return die("accept");
  static char buf[1 << 16];
  uint64_t total = 0;
  for (;;) {
    ssize_t n = read(c, buf, sizeof buf);
    if (n <= 0) break;
    total += n;
  }
  printf("received %llu\n", (unsigned long long)total);
  return 0;
}

static int send_for(const char *addr, int port, const char *cc, double seconds) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc)) < 0) return die("TCP_CONGESTION");
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, addr, &a.sin_addr);
  for (int tries = 0; connect(s, (struct sockaddr *)&a, sizeof a) < 0; tries++) {
    if (tries > 50) return die("connect");
    usleep(100000);
    close(s);
    s = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc));
  }
  int flags = 0;
  static char buf[1 << 16];
  memset(buf, 'x', sizeof buf);
  double start = now_s();
  struct timeval tv = {.tv_sec = 0, .tv_usec = 100000};
  setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  while (now_s() - start < seconds) {
    ssize_t n = send(s, buf, sizeof buf, flags);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return die("send");
  }
  struct tcp_info i;
  socklen_t len = sizeof i;
  if (getsockopt(s, IPPROTO_TCP, TCP_INFO, &i, &len) < 0) return die("TCP_INFO");
  double elapsed = now_s() - start;
  printf("result cc=%s seconds=%.3f acked=%llu retrans=%u dsack_dups=%u reord_seen=%u "
         "snd_cwnd=%u ssthresh=%u rtt_us=%u rto_us=%u bytes_retrans=%llu lost=%u\n",
         cc, elapsed, (unsigned long long)i.tcpi_bytes_acked, i.tcpi_total_retrans,
         i.tcpi_dsack_dups, i.tcpi_reord_seen, i.tcpi_snd_cwnd, i.tcpi_snd_ssthresh, i.tcpi_rtt,
         i.tcpi_rto, (unsigned long long)i.tcpi_bytes_retrans, i.tcpi_lost);
  fflush(stdout);
  shutdown(s, SHUT_RDWR);
  close(s);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "recv")) return recv_all(atoi(argv[2]));
  if (argc == 6 && !strcmp(argv[1], "send")) return send_for(argv[2], atoi(argv[3]), argv[4], atof(argv[5]));
  fprintf(stderr, "usage: bulk recv PORT | bulk send ADDR PORT CC SECONDS\n");
  return 2;
}
