/* The read floor of `cargo xtask bench`: walk the directories given and read every regular
 * file under them, on two threads, as plainly as C does it (opendir/readdir with d_type,
 * open/read/close into one buffer a thread). No link is followed; hidden entries are
 * read too. Prints the number of files and bytes read. Every row of the bench that reads
 * a tree is a ratio to this program's time on the same tree, in the same run.
 *
 * usage: floor DIR...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 2
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
            if (e->d_type == DT_REG) {
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
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++)
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
