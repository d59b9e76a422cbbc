package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// nginxReady bounds the wait for nginx to accept connections after it starts.
const nginxReady = 10 * time.Second

// accessLogFormat is the access log's line: tab-separated time, status, body bytes, method,
// request URI (path and query as sent) and User-Agent. nginx escapes control characters,
// quotes and backslashes in variables, so no field holds a tab.
const accessLogFormat = `$msec\t$status\t$body_bytes_sent\t$request_method\t$request_uri\t$http_user_agent`

// site is what nginx serves: the files under Root, at 127.0.0.1:Port, with robots.txt from
// Dir. Dir also holds the configuration, the pid file, the logs and nginx's temporary files.
type site struct {
	Root     string // absolute: the directory served at "/", with autoindex for directories without index.html
	Dir      string // absolute: nginx's private files
	Port     int
	Disallow string // the directory robots.txt disallows, "/tutorial/"
}

func (s site) confPath() string      { return filepath.Join(s.Dir, "nginx.conf") }
func (s site) accessLogPath() string { return filepath.Join(s.Dir, "access.log") }
func (s site) robotsPath() string    { return filepath.Join(s.Dir, "robots.txt") }

// robotsTxt is the site's robots.txt: one directory disallowed to everybody.
func (s site) robotsTxt() string { return "User-agent: *\nDisallow: " + s.Disallow + "\n" }

// config returns nginx.conf for s: one process in the foreground (master_process off and
// daemon off, so the bench controls it and reads its CPU time), everything private to s.Dir,
// keep-alive as nginx's defaults.
func (s site) config(mimeTypes string) string {
	mime := "types { text/html html; text/css css; text/plain txt; }"
	if mimeTypes != "" {
		mime = "include " + mimeTypes + ";"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# Written by sitebench; served while it runs.
daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
    %[2]s
    default_type application/octet-stream;
    log_format bench '%[3]s';
    access_log %[1]s/access.log bench;
    client_body_temp_path %[1]s/tmp/body;
    proxy_temp_path %[1]s/tmp/proxy;
    fastcgi_temp_path %[1]s/tmp/fastcgi;
    uwsgi_temp_path %[1]s/tmp/uwsgi;
    scgi_temp_path %[1]s/tmp/scgi;
    sendfile on;
    server {
        listen 127.0.0.1:%[4]d;
        server_name _;
        root %[5]s;
        autoindex on;
        location = /robots.txt { root %[1]s; }
    }
}
`, s.Dir, mime, accessLogFormat, s.Port, s.Root)
	return b.String()
}

// prepare writes the configuration and robots.txt and empties the logs.
func (s site) prepare() error {
	if err := os.MkdirAll(filepath.Join(s.Dir, "tmp"), 0o755); err != nil {
		return fmt.Errorf("nginx: %w", err)
	}
	mime := "/etc/nginx/mime.types"
	if _, err := os.Stat(mime); err != nil {
		mime = ""
	}
	for path, body := range map[string]string{s.confPath(): s.config(mime), s.robotsPath(): s.robotsTxt(), s.accessLogPath(): ""} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return fmt.Errorf("nginx: %w", err)
		}
	}
	return nil
}

// server is a running nginx. stop may be called more than once, from one goroutine.
type server struct {
	cmd     *exec.Cmd
	exited  chan struct{} // closed when nginx has exited; waitErr is set then
	waitErr error
}

// startNginx starts nginx (the binary bin) on s in the foreground and waits until it accepts
// connections.
func startNginx(ctx context.Context, bin string, s site) (*server, error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", s.Dir, "-e", filepath.Join(s.Dir, "error.log"), "-c", s.confPath())
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start nginx: %w", err)
	}
	srv := &server{cmd: cmd, exited: make(chan struct{})}
	go func() {
		srv.waitErr = cmd.Wait()
		close(srv.exited)
	}()
	deadline := time.Now().Add(nginxReady)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return srv, nil
		}
		select {
		case <-srv.exited:
			log, _ := os.ReadFile(filepath.Join(s.Dir, "error.log"))
			return nil, fmt.Errorf("nginx exited at start: %v\n%s", srv.waitErr, log)
		case <-ctx.Done():
			srv.stop()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond): // polling a port that has no event to wait on
		}
		if time.Now().After(deadline) {
			srv.stop()
			return nil, fmt.Errorf("nginx: not accepting on %s after %v", addr, nginxReady)
		}
	}
}

// pid returns nginx's process ID.
func (s *server) pid() int { return s.cmd.Process.Pid }

// nginxQuit bounds the wait for nginx to quit after SIGTERM; then it is killed.
const nginxQuit = 10 * time.Second

// stop asks nginx to quit (SIGTERM: fast shutdown) and waits for it; once it has exited,
// stop does nothing.
func (s *server) stop() error {
	select {
	case <-s.exited:
		return nil
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stop nginx: %w", err)
	}
	select {
	case <-s.exited:
		return nil
	case <-time.After(nginxQuit):
		s.cmd.Process.Kill()
		<-s.exited
		return fmt.Errorf("stop nginx: it did not quit in %v; killed", nginxQuit)
	}
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// processCPU returns the user plus system CPU time process pid has used (Linux: /proc/PID/stat,
// in clock ticks of 1/100 s); false when it cannot be read.
func processCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatCPU(string(b))
}

// ticksPerSecond is USER_HZ, 100 on every Linux this runs on.
const ticksPerSecond = 100

// parseStatCPU reads utime and stime (fields 14 and 15) of /proc/PID/stat content. The command
// name (field 2) is in parentheses and may hold spaces, so fields are counted after the last ')'.
func parseStatCPU(stat string) (time.Duration, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(u+s) * time.Second / ticksPerSecond, true
}
