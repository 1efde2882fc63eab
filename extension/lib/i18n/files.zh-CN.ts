import type { filesEn } from '@/lib/i18n/files.en';

/** 简体中文 of local files dropped or picked, and the library grid (popup/library). */
export const filesZhCN: Record<keyof typeof filesEn, string> = {
  'files.add': '添加文件…',
  'files.dropHint': '也可以把文件拖放到这里。',
  'files.dropTo': '拖放文件以添加到“{group}”',
  'files.dropChoose': '拖放文件，然后选择素材组',
  'files.goesTo': '文件将添加到“{group}”。',
  'files.pick': '将 {count} 个文件添加到',
  'files.pickAdd': '添加',
  'files.noGroup': '请先创建一个素材组，再向其中添加文件。',
  'files.reading': '正在读取 {name}：{read} / {size}',
  'files.unnamed': '文件',
  'files.changed': '读取期间文件发生了变化',
  'files.readFailed': '未添加：无法读取该文件（{why}）。',
  'files.refuse.tooLarge': '未添加：该文件大小为 {size}；素材库接受的文件最大为 {limit}。',
  'library.grid.layout': '显示方式',
  'library.grid.list': '列表',
  'library.grid.grid': '网格',
} as const;
