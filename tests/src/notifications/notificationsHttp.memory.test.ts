import { PortsMemory } from "@svc/adapters-memory"
import { notificationsHttpSuite } from "./NotificationsHttpSuite.ts"

notificationsHttpSuite("memory", PortsMemory)
