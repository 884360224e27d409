// Command netcheck is the one program of the test bed's images: a pod sandbox that waits for a signal
// (pause), a TCP and UDP echo server (serve), and a client that proves or disproves a path (probe).
//
//	netcheck pause
//	netcheck serve [-tcp :8080] [-udp :8081]
//	netcheck probe tcp|udp <host:port> [-timeout 2s]   exit 0 and "ok <reply>", or exit 1 and "fail <reason>"
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "pause":
		waitForSignal()
	case "serve":
		serve(os.Args[2:])
	case "probe":
		probe(os.Args[2:])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: netcheck pause | serve [-tcp :8080] [-udp :8081] | probe tcp|udp host:port [-timeout 2s]")
	os.Exit(2)
}

func waitForSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	<-ch
}

func reply() string {
	name, _ := os.Hostname()
	return "pong " + name
}

func serve(args []string) {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	tcpAddr := fs.String("tcp", ":8080", "TCP address to echo on")
	udpAddr := fs.String("udp", ":8081", "UDP address to echo on")
	_ = fs.Parse(args)
	ln, err := net.Listen("tcp", *tcpAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pc, err := net.ListenPacket("udp", *udpAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("serving tcp %s udp %s\n", *tcpAddr, *udpAddr)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				continue
			}
			go func(c net.Conn) {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				line, _ := bufio.NewReader(c).ReadString('\n')
				fmt.Fprintf(c, "%s %s\n", reply(), strings.TrimSpace(line))
			}(c)
		}
	}()
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				continue
			}
			_, _ = pc.WriteTo([]byte(fmt.Sprintf("%s %s\n", reply(), strings.TrimSpace(string(buf[:n])))), from)
		}
	}()
	waitForSignal()
}

func probe(args []string) {
	if len(args) < 2 {
		usage()
	}
	proto, target := args[0], args[1]
	fs := flag.NewFlagSet("probe", flag.ExitOnError)
	timeout := fs.Duration("timeout", 2*time.Second, "how long to wait for the reply")
	_ = fs.Parse(args[2:])
	if proto != "tcp" && proto != "udp" {
		usage()
	}
	conn, err := net.DialTimeout(proto, target, *timeout)
	if err != nil {
		fail(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(*timeout))
	if _, err := fmt.Fprintln(conn, "ping"); err != nil {
		fail(err)
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		fail(err)
	}
	fmt.Printf("ok %s", line)
}

func fail(err error) {
	fmt.Printf("fail %v\n", err)
	os.Exit(1)
}
