#!/bin/sh
# --mysql-ssl and --mysql-ssl-ca/-cert/-key/-cipher through Connector/C's TLS,
# and --mysql-compression, against a throwaway MariaDB given a certificate
# made here: a user the server lets in only over TLS (REQUIRE SSL), or only
# with a client certificate (REQUIRE X509), connects exactly when asked to;
# a script's session reports Ssl_cipher and Compression.
. "$(dirname "$0")/lib.sh" "$1"
need_engine mysql
need_tool openssl openssl
# the server runs as another user: the certificates must be readable to it
pki=$(mktemp -d "${TMPDIR:-/tmp}/dbscale-pki-XXXXXX") || fail "mktemp failed"
chmod 755 "$pki"
unset MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD
export HOME="$pki/home" # no ~/.my.cnf of the caller's
mkdir "$HOME"
trap 'rm -rf "$pki"' EXIT
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$pki/$1" 2>/dev/null; }
key ca-key.pem && key server-key.pem && key client-key.pem || fail "openssl genpkey failed"
openssl req -x509 -new -key "$pki/ca-key.pem" -subj /CN=dbscale-test-ca -days 2 \
    -out "$pki/ca.pem" 2>/dev/null || fail "openssl req (CA) failed"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$pki/san.ext"
for who in server client; do
    openssl req -new -key "$pki/$who-key.pem" -subj "/CN=127.0.0.1" -out "$pki/$who.csr" 2>/dev/null &&
        openssl x509 -req -in "$pki/$who.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca-key.pem" \
            -CAcreateserial -days 2 -extfile "$pki/san.ext" -out "$pki/$who-cert.pem" 2>/dev/null ||
        fail "openssl: $who certificate failed"
done
chmod 644 "$pki"/*.pem
start_server mysql --conf ssl_ca="$pki/ca.pem" --conf ssl_cert="$pki/server-cert.pem" \
    --conf ssl_key="$pki/server-key.pem"
at_exit 'rm -rf "$pki"'
# Debian's MariaDB is built with TLS: DISABLED here means the --conf ssl_*
# lines did not reach the server, NO a build without TLS; neither may pass
ssl=$(my_sql "SELECT @@have_ssl")
expect_eq "have_ssl with the test's certificate" "$ssl" YES
PW=$(server_password)
# root inside the throwaway server logs in by the unix socket as OS root
[ "$(id -u)" = 0 ] || skip_env "creating the TLS users needs the server's root (OS root)"
mariadb --no-defaults -u root -S "$SERVER_SOCKET" -e "CREATE USER tls@'%' IDENTIFIED BY '$PW' REQUIRE SSL;
        CREATE USER x509@'%' IDENTIFIED BY '$PW' REQUIRE X509;
        GRANT ALL ON sbtest.* TO tls@'%'; GRANT ALL ON sbtest.* TO x509@'%'" ||
    fail "creating the TLS users failed"
AS="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$SERVER_PORT --mysql-password=$PW"
SMALL="oltp_point_select --tables=1 --table-size=10"

works() { # works WHAT OPTIONS...: prepare and cleanup succeed
    what=$1
    shift
    out=$("$DBSCALE" prepare $SMALL $AS "$@" 2>&1) || fail "$what: prepare failed: $out"
    out=$("$DBSCALE" cleanup $SMALL $AS "$@" 2>&1) || fail "$what: cleanup failed: $out"
}
refused() { # refused WHAT WHY OPTIONS...: prepare fails to connect (exit 1,
    # saying WHY), not for anything before it (an option's refusal: exit 2)
    what=$1 why=$2
    shift 2
    out=$("$DBSCALE" prepare $SMALL $AS "$@" 2>&1)
    expect_eq "$what: exit ($out)" $? 1
    echo "$out" | grep -q "can't connect.*$why" || fail "$what: not refused for '$why': $out"
    echo "$what: refused: $(echo "$out" | head -n 1)"
}

refused "REQUIRE SSL user without --mysql-ssl" "Access denied for user .tls." --mysql-user=tls
works "--mysql-ssl=on" --mysql-user=tls --mysql-ssl=on
works "--mysql-ssl=REQUIRED + CA" --mysql-user=tls --mysql-ssl=REQUIRED --mysql-ssl-ca="$pki/ca.pem"
works "--mysql-ssl=VERIFY_IDENTITY" --mysql-user=tls --mysql-ssl=verify_identity \
    --mysql-ssl-ca="$pki/ca.pem"
# a CA that did not sign the server's certificate must be refused
# the run's non-blocking statements over TLS too
out=$("$DBSCALE" prepare $SMALL $AS --mysql-user=tls --mysql-ssl=on 2>&1) || fail "prepare: $out"
out=$("$DBSCALE" run $SMALL $AS --mysql-user=tls --mysql-ssl=on --mysql-compression=on --threads=2 \
    --events=200 --time=0 2>&1) || fail "run over TLS with compression failed: $out"
echo "$out" | grep -Eq 'transactions: +200 ' || fail "run over TLS: not 200 transactions: $out"
out=$("$DBSCALE" cleanup $SMALL $AS --mysql-user=tls --mysql-ssl=on 2>&1) || fail "cleanup: $out"
refused "VERIFY_CA with the wrong CA" "TLS/SSL error" --mysql-user=tls --mysql-ssl=VERIFY_CA \
    --mysql-ssl-ca="$pki/client-cert.pem"
works "--mysql-ssl-cipher" --mysql-user=tls --mysql-ssl=on --mysql-ssl-cipher=ECDHE-ECDSA-AES128-GCM-SHA256
refused "REQUIRE X509 user without a client certificate" "Access denied for user .x509." \
    --mysql-user=x509 --mysql-ssl=on
works "--mysql-ssl-cert/-key" --mysql-user=x509 --mysql-ssl-cert="$pki/client-cert.pem" \
    --mysql-ssl-key="$pki/client-key.pem"
# sysbench 1.0.20's --mysql-ssl=on reads these names in the current directory
mkdir "$pki/cwd"
cp "$pki/ca.pem" "$pki/cwd/cacert.pem"
cp "$pki/client-cert.pem" "$pki/client-key.pem" "$pki/cwd/"
(cd "$pki/cwd" && works "--mysql-ssl=on with sysbench 1.0's files" --mysql-user=x509 --mysql-ssl=on) ||
    exit 1

# bad values are refused before anything connects, with exit 2
for bad in "--mysql-ssl=maybe" "--mysql-ssl-ca=$pki/none.pem" "--mysql-ssl=off --mysql-ssl-ca=$pki/ca.pem" \
    "--mysql-ssl-cert=$pki/client-cert.pem"; do
    "$DBSCALE" prepare $SMALL $AS --mysql-user=tls $bad >"$pki/out" 2>&1
    expect_eq "$bad: exit" $? 2
    grep -q -- "--mysql-ssl" "$pki/out" || fail "$bad: the refusal names no --mysql-ssl option: $(cat "$pki/out")"
done

# what the session itself says, from a script on the same connection setup
cat >"$pki/status.lua" <<'LUA'
function prepare()
   local con = sysbench.sql.driver():connect()
   for _, v in ipairs({"Ssl_cipher", "Compression"}) do
      local rs = con:query("SHOW SESSION STATUS LIKE '" .. v .. "'")
      print(v .. "=" .. (rs:fetch_row()[2] or ""))
   end
end
LUA
out=$("$DBSCALE" "$pki/status.lua" $AS --mysql-user=tls --mysql-ssl=on --mysql-compression=on \
    prepare 2>&1) || fail "status.lua failed: $out"
echo "$out" | grep -q '^Ssl_cipher=.' || fail "no Ssl_cipher with --mysql-ssl=on: $out"
echo "$out" | grep -qx 'Compression=ON' || fail "Compression not ON with --mysql-compression: $out"
out=$("$DBSCALE" "$pki/status.lua" $AS --mysql-user=sbtest prepare 2>&1) || fail "status.lua: $out"
echo "$out" | grep -qx 'Ssl_cipher=' || fail "Ssl_cipher without --mysql-ssl: $out"
echo "$out" | grep -qx 'Compression=OFF' || fail "Compression without --mysql-compression: $out"
echo "conn_mysql_tls: ok"
