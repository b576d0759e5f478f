/* The read floor of `cargo xtask bench`: walk the directories given and read every regular
 * file under them, on two threads, as plainly as C does it (opendir/readdir with d_type,
 * open/read/close into one buffer a thread). No link is followed; hidden entries are
 * read too. Prints the number of files and bytes read. Every row of the bench that reads
 * a tree is a ratio to this program's time on the same tree, in the same run.
 *
 * With --keep, each regular file is read as a rule reader must read it, and no more: opened
 * without following a link, its type and size asked of the opened file (fstat), read into a
 * buffer of its own one byte past that size (one read sees the end), and the buffer kept
 * (never freed): the floor under what any reader that checks each file and keeps its text
 * can do.
 *
 * usage: floor [--keep] DIR...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define THREADS 2

/* --keep: read each file as a rule reader must (see the top). */
static int keep;
#define BUFFER (1 << 16)

/* Directories waiting to be read, shared by the threads. */
static char **stack;
static size_t depth, room;
static int busy; /* threads working on a directory */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;

static void push(char *dir) {
    if (depth == room) {
        room = room ? room * 2 : 1024;
        stack = realloc(stack, room * sizeof *stack);
        if (!stack) {
            perror("realloc");
            exit(1);
        }
    }
    stack[depth++] = dir;
}

/* The next directory, or NULL when every thread is idle and none is left. */
static char *next(void) {
    pthread_mutex_lock(&lock);
    while (depth == 0 && busy > 0)
        pthread_cond_wait(&more, &lock);
    char *dir = NULL;
    if (depth > 0) {
        dir = stack[--depth];
        busy++;
    } else {
        pthread_cond_broadcast(&more);
    }
    pthread_mutex_unlock(&lock);
    return dir;
}

struct totals {
    unsigned long long files, bytes;
};

static void *work(void *arg) {
    struct totals *totals = arg;
    char *buffer = malloc(BUFFER);
    char *dir;
    while ((dir = next()) != NULL) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            size_t len = strlen(dir) + strlen(e->d_name) + 2;
            char *path = malloc(len);
            snprintf(path, len, "%s/%s", dir, e->d_name);
            if (e->d_type == DT_DIR) {
                pthread_mutex_lock(&lock);
                push(path);
                pthread_cond_signal(&more);
                pthread_mutex_unlock(&lock);
                continue;
            }
            if (e->d_type == DT_REG && keep) {
                int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
                struct stat st;
                if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
                    size_t room = (size_t)st.st_size + 1, got = 0;
                    char *own = malloc(room); /* kept: never freed */
                    while (own && got < room) {
                        size_t want = room - got;
                        ssize_t n = read(fd, own + got, want);
                        if (n <= 0)
                            break;
                        got += (size_t)n;
                        if ((size_t)n < want)
                            break; /* a short read: the end */
                    }
                    totals->bytes += got;
                    totals->files++;
                }
                if (fd >= 0)
                    close(fd);
            } else if (e->d_type == DT_REG) {
                int fd = open(path, O_RDONLY | O_CLOEXEC);
                if (fd >= 0) {
                    ssize_t n;
                    while ((n = read(fd, buffer, BUFFER)) > 0)
                        totals->bytes += (unsigned long long)n;
                    close(fd);
                    totals->files++;
                }
            }
            free(path);
        }
        if (d)
            closedir(d);
        free(dir);
        pthread_mutex_lock(&lock);
        busy--;
        pthread_cond_broadcast(&more);
        pthread_mutex_unlock(&lock);
    }
    free(buffer);
    return NULL;
}

int main(int argc, char **argv) {
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "--keep")) {
        keep = 1;
        first = 2;
    }
    if (argc <= first) {
        fprintf(stderr, "usage: %s [--keep] DIR...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++)
        push(strdup(argv[i]));
    pthread_t threads[THREADS];
    struct totals totals[THREADS] = {{0, 0}};
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, work, &totals[i]);
    unsigned long long files = 0, bytes = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        files += totals[i].files;
        bytes += totals[i].bytes;
    }
    printf("%llu files, %llu bytes\n", files, bytes);
    return 0;
}
