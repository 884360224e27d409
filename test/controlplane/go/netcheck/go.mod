module paddock.dev/controlplane/netcheck

go 1.26.0
