// Lists the consumers of a JetStream stream, one name a line, through the
// official NATS client (an implementation independent of tern's); with
// "delete", deletes the partitions' live consumers (named pN or pN-...)
// first, as an owner that lost a partition, or a server that lost them,
// would. Usage: node nats_consumers.mjs URL STREAM [delete]
import { connect } from "nats";

const [url, stream, action] = process.argv.slice(2);
if (!url || !stream) {
	console.error("usage: node nats_consumers.mjs URL STREAM [delete]");
	process.exit(2);
}
const nc = await connect({ servers: url });
const jsm = await nc.jetstreamManager();
if (action === "delete") {
	for await (const ci of jsm.consumers.list(stream)) {
		if (/^p[0-9]+(-|$)/.test(ci.name)) {
			await jsm.consumers.delete(stream, ci.name);
			console.log(`deleted ${ci.name}`);
		}
	}
} else {
	for await (const ci of jsm.consumers.list(stream))
		console.log(ci.name);
}
await nc.close();
