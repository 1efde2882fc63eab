import type { snapshotEn } from '@/lib/i18n/snapshot.en';

/** 简体中文 of screenshots and video frames (lib/capture: visible area, region, frame). */
export const snapshotZhCN: Record<keyof typeof snapshotEn, string> = {
  'snapshot.menu.visible': '截取可见区域',
  'snapshot.menu.region': '截取选定区域…',
  'snapshot.menu.frame': '截取此帧',
  'snapshot.region.label': 'Arkbridge：选择要截取的区域',
  'snapshot.region.instructions': '拖动以选择要截取的区域。按 Esc 键取消。',
  'snapshot.region.size': '{width} × {height}',
  'snapshot.name.screenshot': '{title} 的截图 {time}',
  'snapshot.name.frame': '{name} 在 {time} 的画面',
  'snapshot.name.untitled': '网页',
  'snapshot.saved.title': '已保存到 {group}',
  'snapshot.saved.message': '正在添加 {name}。准备就绪后 Arkbridge 会通知你。',
  'snapshot.failed.title': '未截取任何内容',
  'snapshot.failed.page': '无法截取此页面：浏览器不允许扩展访问其自身页面和扩展商店。',
  'snapshot.failed.capture': '浏览器未能截图（{why}）。请重试。',
  'snapshot.failed.noVideo': '在你点击的位置没有找到视频。',
  'snapshot.failed.notReady': '视频还没有画面。请先播放（或拖动进度），再截取此帧。',
  'snapshot.failed.crossFrame': '此视频在另一个网站的框架中播放，该网站不允许复制其画面，且无法在页面上定位该框架。请改用“截取选定区域…”框选它。',
  'snapshot.failed.embedded': '浏览器不允许 Arkbridge 读取此嵌入式播放器（来自另一个网站的框架）。请改用“截取选定区域…”框选它。',
  'snapshot.failed.read': '无法从页面读取此帧（{why}）。请重试。',
};
