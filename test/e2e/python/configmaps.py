"""The Python `kubernetes` client against a running `converge apiserver`, driven by configmaps.test.ts.

Usage: configmaps.py KUBECONFIG NAMESPACE SCENARIO, with SCENARIO one of connection, crud, not-found,
watch.
The kubeconfig is loaded as the server wrote it. Each scenario prints one JSON document of what the
client saw, for the test to assert on; any exception the client raises exits non-zero with its
traceback, so nothing goes unnoticed.
"""
import json
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def config_map(name, data):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data=data)


def connection(v1, ns):
    """How the client reaches the server, as load_kube_config set it up from the file."""
    c = v1.api_client.configuration
    return {"host": c.host, "verifySsl": c.verify_ssl, "hasCaFile": bool(c.ssl_ca_cert),
            "authorization": c.api_key.get("authorization", "").split(" ")[0], "namespaces": [n.metadata.name for n in v1.list_namespace().items]}


def crud(v1, ns):
    created = v1.create_namespaced_config_map(ns, config_map("app", {"a": "1"}))
    read = v1.read_namespaced_config_map("app", ns)
    read_data = dict(read.data)
    listed = v1.list_namespaced_config_map(ns)
    read.data = {"a": "2"}
    replaced = v1.replace_namespaced_config_map("app", ns, read)
    # A dict body goes as a strategic merge patch, a list as a JSON patch.
    merged = v1.patch_namespaced_config_map("app", ns, {"data": {"b": "3"}})
    json_patched = v1.patch_namespaced_config_map("app", ns, [{"op": "remove", "path": "/data/a"}])
    deleted = v1.delete_namespaced_config_map("app", ns)
    try:
        v1.read_namespaced_config_map("app", ns)
        gone = None
    except ApiException as e:
        gone = e.status
    return {
        "created": {"name": created.metadata.name, "namespace": created.metadata.namespace, "uid": created.metadata.uid,
                    "resourceVersion": created.metadata.resource_version, "data": created.data},
        "read": {"uid": read.metadata.uid, "data": read_data},
        "listed": {"names": [i.metadata.name for i in listed.items], "resourceVersion": listed.metadata.resource_version},
        "replaced": {"data": replaced.data, "resourceVersion": replaced.metadata.resource_version},
        "merged": merged.data,
        "jsonPatched": json_patched.data,
        "deleted": deleted.status,
        "readAfterDelete": gone,
    }


def not_found(v1, ns):
    try:
        v1.read_namespaced_config_map("missing", ns)
    except ApiException as e:
        body = json.loads(e.body)
        return {"exception": type(e).__name__, "status": e.status, "reason": body.get("reason"), "kind": body.get("kind")}
    return {"exception": None}


def watch_events(v1, ns):
    """Watches from a list's resourceVersion and makes each next change when the previous event arrives."""
    rv = v1.list_namespaced_config_map(ns).metadata.resource_version
    v1.create_namespaced_config_map(ns, config_map("watched", {"step": "added"}))
    seen = []
    w = watch.Watch()
    for event in w.stream(v1.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=20):
        obj = event["object"]
        seen.append({"type": event["type"], "name": obj.metadata.name, "data": obj.data, "resourceVersion": obj.metadata.resource_version})
        if event["type"] == "ADDED":
            v1.patch_namespaced_config_map("watched", ns, {"data": {"step": "modified"}})
        elif event["type"] == "MODIFIED":
            v1.delete_namespaced_config_map("watched", ns)
        elif event["type"] == "DELETED":
            w.stop()
    return {"from": rv, "events": seen}


SCENARIOS = {"connection": connection, "crud": crud, "not-found": not_found, "watch": watch_events}


def main(kubeconfig, ns, scenario):
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()
    v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    print(json.dumps(SCENARIOS[scenario](v1, ns)))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in SCENARIOS:
        sys.exit(f"usage: {sys.argv[0]} KUBECONFIG NAMESPACE {{{','.join(SCENARIOS)}}}")
    main(*sys.argv[1:])
