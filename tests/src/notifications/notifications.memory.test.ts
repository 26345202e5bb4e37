import { PortsMemory } from "@svc/adapters-memory"
import { notificationsContract } from "./NotificationsContract.ts"

notificationsContract("in-memory", PortsMemory)
