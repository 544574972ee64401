# frozen_string_literal: true

require "openssl"
require "socket"
require "tempfile"

# A tiny HTTPS server on loopback that answers each connection with the next of a list of
# scripted replies, and records the requests it got. A reply is [status, headers, body] or
# :drop (close the connection without answering, as a crashed server would).
class LocalServer
  Request = Struct.new(:method, :path, :headers, :body, keyword_init: true)

  attr_reader :requests, :port, :ca_file

  # A self-signed certificate for `hostname`, written to a file a client can trust.
  def self.certificate(hostname, expires: Time.now + 3600)
    key = OpenSSL::PKey::EC.generate("prime256v1")
    cert = OpenSSL::X509::Certificate.new
    cert.version = 2
    cert.serial = rand(1 << 63)
    cert.subject = cert.issuer = OpenSSL::X509::Name.parse("/CN=#{hostname}")
    cert.public_key = key
    cert.not_before = expires - 7200
    cert.not_after = expires
    extensions = OpenSSL::X509::ExtensionFactory.new(cert, cert)
    san = hostname.match?(/\A[\d.]+\z/) ? "IP:#{hostname}" : "DNS:#{hostname}"
    cert.add_extension(extensions.create_extension("subjectAltName", san))
    cert.add_extension(extensions.create_extension("basicConstraints", "CA:TRUE", true))
    cert.sign(key, OpenSSL::Digest.new("SHA256"))
    file = Tempfile.new(["ca", ".pem"])
    file.write(cert.to_pem)
    file.close
    [key, cert, file]
  end

  def initialize(replies, hostname: "127.0.0.1", expires: Time.now + 3600)
    @replies = replies
    @requests = []
    key, cert, @ca = LocalServer.certificate(hostname, expires: expires)
    @ca_file = @ca.path
    context = OpenSSL::SSL::SSLContext.new
    context.key = key
    context.cert = cert
    @tcp = TCPServer.new("127.0.0.1", 0)
    @port = @tcp.addr[1]
    @server = OpenSSL::SSL::SSLServer.new(@tcp, context)
    @thread = Thread.new { serve }
  end

  def url
    "https://127.0.0.1:#{@port}/v1"
  end

  def close
    @thread.kill
    @tcp.close
    @ca.unlink
  end

  private

  def serve
    loop do
      socket = begin
        @server.accept
      rescue OpenSSL::SSL::SSLError
        next # a client that refused our certificate: what some tests expect
      end
      request = read_request(socket)
      next socket.close if request.nil? # a client that refused our certificate after the handshake
      @requests << request
      reply = @replies.shift || [500, {}, "no reply scripted"]
      if reply == :drop
        socket.sync_close = true
        socket.to_io.close
      else
        status, headers, body = reply
        head = headers.merge("Content-Length" => body.bytesize.to_s, "Connection" => "close")
        socket.write("HTTP/1.1 #{status} X\r\n#{head.map { |k, v| "#{k}: #{v}\r\n" }.join}\r\n#{body}")
        socket.close
      end
    end
  end

  def read_request(socket)
    line = socket.gets or return nil
    method, path = line.split(" ")
    headers = {}
    while (line = socket.gets) && line != "\r\n"
      name, value = line.chomp.split(": ", 2)
      headers[name.downcase] = value
    end
    body = headers["content-length"] ? socket.read(Integer(headers["content-length"])) : nil
    Request.new(method: method, path: path, headers: headers, body: body)
  end
end
