"""What the Python client's own end-to-end suite relies on, against a running `converge apiserver`;
driven by suite-behaviours.test.ts.

Usage: suite_behaviours.py KUBECONFIG NAMESPACE SCENARIO, with SCENARIO one of the keys of SCENARIOS.
Each scenario creates its objects in NAMESPACE (created first) and prints one JSON document of what the
client saw; the manifests are written here, as YAML text, and handed to `kubernetes.utils` the way a user
does. Any exception the client raises and the scenario does not expect exits non-zero with its traceback.
"""
import json
import os
import sys
import tempfile

from kubernetes import client, config, utils, watch


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def service(name):
    return f"""apiVersion: v1
kind: Service
metadata:
  name: {name}
spec:
  selector:
    app: {name}
  ports:
  - port: 80
    targetPort: 8080
"""


def deployment(name):
    return f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
      containers:
      - name: web
        image: nginx
"""


def replication_controller(name):
    return f"""apiVersion: v1
kind: ReplicationController
metadata:
  name: {name}
spec:
  replicas: 1
  selector:
    app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
      containers:
      - name: web
        image: nginx
"""


def indent(text, prefix):
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


def as_list(kind, docs):
    """A `kind: <kind>` document whose items are `docs` (each a YAML mapping)."""
    items = "".join("- " + indent(d, "  ").lstrip() for d in docs)
    return f"apiVersion: v1\nkind: {kind}\nitems:\n{items}"


def failures(fn):
    """The text of the FailToCreateError `fn` raises, or None when it raises none."""
    try:
        fn()
    except utils.FailToCreateError as e:
        return str(e)
    return None


def yaml_conflicts(api, ns, tmp):
    """Multi-document files where some documents already exist: the rest is created, the failures reported."""
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    utils.create_from_yaml(api, write(tmp, "first.yaml", service("web")), namespace=ns)
    partial = failures(lambda: utils.create_from_yaml(
        api, write(tmp, "multi.yaml", service("web") + "---\n" + replication_controller("web")), namespace=ns))
    repeated = failures(lambda: utils.create_from_yaml(
        api, write(tmp, "triple.yaml", "---\n".join([deployment("triple")] * 3)), namespace=ns))
    return {
        "partial": partial,
        "rcCreated": core.read_namespaced_replication_controller("web", ns).metadata.name,
        "repeated": repeated,
        "deploymentCreated": apps.read_namespaced_deployment("triple", ns).metadata.name,
    }


def yaml_lists(api, ns, tmp):
    """`kind: List` and `kind: <Kind>List` documents, a list with a conflict, and a directory of files."""
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    utils.create_from_yaml(api, write(tmp, "general.yaml", as_list("List", [service("listed"), deployment("listed")])), namespace=ns)
    utils.create_from_yaml(api, write(tmp, "services.yaml", as_list("ServiceList", [service("a"), service("b")])), namespace=ns)
    conflict = failures(lambda: utils.create_from_yaml(
        api, write(tmp, "again.yaml", as_list("ServiceList", [service("b"), service("c")])), namespace=ns))
    directory = os.path.join(tmp, "dir")
    os.mkdir(directory)
    write(directory, "svc.yaml", service("from-dir"))
    write(directory, "rc.yaml", replication_controller("from-dir"))
    utils.create_from_directory(api, directory, namespace=ns)
    return {
        "general": [core.read_namespaced_service("listed", ns).metadata.name, apps.read_namespaced_deployment("listed", ns).metadata.name],
        "services": sorted(s.metadata.name for s in core.list_namespaced_service(ns).items),
        "conflict": conflict,
        "fromDirectory": [core.read_namespaced_service("from-dir", ns).metadata.name,
                          core.read_namespaced_replication_controller("from-dir", ns).metadata.name],
    }


def yaml_scopes(api, ns, tmp):
    """Cluster-scoped kinds (Namespaces, an APIService), a namespace given in the document, an RBAC Role."""
    core, rbac, apps = client.CoreV1Api(api), client.RbacAuthorizationV1Api(api), client.AppsV1Api(api)
    other = ns + "-other"
    namespaces = as_list("List", [f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {other}\n",
                                  f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}-third\n"])
    utils.create_from_yaml(api, write(tmp, "namespaces.yaml", namespaces))
    placed = deployment("placed").replace("  name: placed\n", f"  name: placed\n  namespace: {other}\n")
    utils.create_from_yaml(api, write(tmp, "placed.yaml", placed))
    role = f"""apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "watch", "list"]
"""
    utils.create_from_yaml(api, write(tmp, "role.yaml", role), namespace=ns)
    name = f"v1alpha1.{ns}.example.com"
    api_service = f"""apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: {name}
spec:
  group: {ns}.example.com
  version: v1alpha1
  groupPriorityMinimum: 1000
  versionPriority: 15
  insecureSkipTLSVerify: true
  service:
    name: api
    namespace: {ns}
"""
    path = write(tmp, "apiservice.yaml", api_service)
    utils.create_from_yaml(api, path)
    registration = client.ApiregistrationV1Api(api)
    conflict = failures(lambda: utils.create_from_yaml(api, path))
    read = registration.read_api_service(name)
    registration.delete_api_service(name, body={})
    return {
        "namespaces": [core.read_namespace(n).metadata.name for n in (other, ns + "-third")],
        "placed": apps.read_namespaced_deployment("placed", other).metadata.namespace,
        "role": [r.to_dict() for r in rbac.read_namespaced_role("reader", ns).rules],
        "apiService": {"name": read.metadata.name, "service": read.spec.service.to_dict()},
        "apiServiceConflict": conflict,
        "builtinApiServices": [s.metadata.name for s in registration.list_api_service().items if s.spec.service is None],
    }


def typed(api, ns, _tmp):
    """Services, ReplicationControllers, Jobs, Deployments, DaemonSets, ConfigMaps and Nodes through their typed APIs."""
    core, apps, batch = client.CoreV1Api(api), client.AppsV1Api(api), client.BatchV1Api(api)
    svc = {"apiVersion": "v1", "kind": "Service",
           "metadata": {"name": "frontend", "labels": {"name": "frontend"}, "resourceversion": "v1"},
           "spec": {"ports": [{"name": "port", "port": 80, "protocol": "TCP", "targetPort": 80}], "selector": {"name": "frontend"}}}
    created_svc = core.create_namespaced_service(ns, svc)
    svc["spec"]["ports"] = [{"name": "new", "port": 8080, "protocol": "TCP", "targetPort": 8080}]
    patched_svc = core.patch_namespaced_service("frontend", ns, svc)
    core.delete_namespaced_service("frontend", ns, body={})

    rc = {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc", "labels": {"name": "rc"}},
          "spec": {"replicas": 2, "selector": {"name": "rc"},
                   "template": {"metadata": {"labels": {"name": "rc"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}}}
    created_rc = core.create_namespaced_replication_controller(ns, rc)
    read_rc = core.read_namespaced_replication_controller("rc", ns)
    core.delete_namespaced_replication_controller("rc", ns, propagation_policy="Background")

    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "job"},
           "spec": {"template": {"metadata": {"name": "job"},
                                 "spec": {"containers": [{"name": "job", "image": "busybox", "command": ["sh", "-c", "sleep 5"]}],
                                          "restartPolicy": "Never"}}}}
    created_job = batch.create_namespaced_job(ns, job)
    read_job = batch.read_namespaced_job("job", ns)
    batch.delete_namespaced_job("job", ns, propagation_policy="Background")

    labels = {"app": "nginx"}
    template = {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.15.4"}]}}
    apps.create_namespaced_deployment(ns, {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "deploy"},
                                           "spec": {"replicas": 3, "selector": {"matchLabels": labels}, "template": template}})
    read_deploy = apps.read_namespaced_deployment("deploy", ns)
    deleted_deploy = apps.delete_namespaced_deployment("deploy", ns, body=client.V1DeleteOptions())
    apps.create_namespaced_daemon_set(ns, {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds", "labels": labels},
                                           "spec": {"selector": {"matchLabels": labels}, "template": template,
                                                    "updateStrategy": {"type": "RollingUpdate"}}})
    read_ds = apps.read_namespaced_daemon_set("ds", ns)
    deleted_ds = apps.delete_namespaced_daemon_set("ds", ns, body=client.V1DeleteOptions())

    cm = {"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "cm", "labels": {"e2e-tests": "true"}},
          "data": {"config.json": "{\"command\":\"/usr/bin/mysqld_safe\"}", "frontend.cnf": "[mysqld]\nport = 3306\n"}}
    core.create_namespaced_config_map(ns, cm)
    cm["data"]["config.json"] = "{}"
    patched_cm = core.patch_namespaced_config_map("cm", ns, cm)
    core.delete_namespaced_config_map("cm", ns, body={})
    left = core.list_namespaced_config_map(ns, pretty=True, label_selector="e2e-tests=true")
    return {
        "service": {"name": created_svc.metadata.name, "hasStatus": bool(created_svc.status),
                    "ports": sorted(p.port for p in patched_svc.spec.ports)},
        "rc": [created_rc.spec.replicas, read_rc.spec.replicas],
        "job": [created_job.metadata.name, read_job.metadata.name],
        "deployment": {"replicas": read_deploy.spec.replicas, "deleted": deleted_deploy.status},
        "daemonSet": {"strategy": read_ds.spec.update_strategy.type, "deleted": deleted_ds.status},
        "configMap": {"data": patched_cm.data, "left": left.items},
        "nodes": [n.metadata.name for n in core.list_node().items],
    }


def watch_window(api, ns, _tmp):
    """A watch from a list's resourceVersion sees what happened after it, and ends at timeout_seconds."""
    core = client.CoreV1Api(api)
    selector = "e2e-tests=true"

    def cm(name):
        return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": {"e2e-tests": "true"}}, "data": {"v": name}}

    core.create_namespaced_config_map(ns, cm("a"))
    rv = core.list_namespaced_config_map(ns, label_selector=selector).metadata.resource_version
    core.create_namespaced_config_map(ns, cm("b"))
    core.patch_namespaced_config_map("b", ns, {"data": {"config": "{}"}})
    core.delete_collection_namespaced_config_map(ns, label_selector=selector)
    events = [(e["type"], e["object"].metadata.name)
              for e in watch.Watch().stream(core.list_namespaced_config_map, ns, resource_version=rv,
                                            timeout_seconds=1, label_selector=selector)]
    return {"events": events}


SCENARIOS = {"yaml-conflicts": yaml_conflicts, "yaml-lists": yaml_lists, "yaml-scopes": yaml_scopes, "typed": typed,
             "watch-window": watch_window}


def main(kubeconfig, ns, scenario):
    config.load_kube_config(config_file=kubeconfig)
    api = client.ApiClient()
    client.CoreV1Api(api).create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(SCENARIOS[scenario](api, ns, tmp)))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in SCENARIOS:
        sys.exit(f"usage: {sys.argv[0]} KUBECONFIG NAMESPACE {{{','.join(SCENARIOS)}}}")
    main(*sys.argv[1:])
