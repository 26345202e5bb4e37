import { PortsMemory } from "@svc/adapters-memory"
import { installNoncesContract } from "./InstallNoncesContract.ts"

installNoncesContract("in-memory", PortsMemory)
