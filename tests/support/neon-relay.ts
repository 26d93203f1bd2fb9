/**
 * A WebSocket-to-TCP relay, so the Neon serverless driver (which speaks Postgres over WebSockets)
 * can be tested against a plain local PostgreSQL (DESIGN.md section 2).
 */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";

export interface Relay {
  port: number;
  close(): Promise<void>;
}

export async function startNeonRelay(): Promise<Relay> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (socket, request) => {
    const address = new URL(request.url ?? "/", "http://relay").searchParams.get("address") ?? "";
    const [host, port] = address.split(":");
    const tcp = net.connect(Number(port), host ?? "127.0.0.1");
    tcp.on("data", (data) => socket.send(data));
    tcp.on("close", () => socket.close());
    tcp.on("error", () => socket.close());
    socket.on("message", (data) => tcp.write(data as Buffer));
    socket.on("close", () => tcp.destroy());
    socket.on("error", () => tcp.destroy());
  });
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
